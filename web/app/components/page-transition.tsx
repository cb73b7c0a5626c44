import { useRef, type ReactNode } from "react";
import { useLocation } from "react-router";
import { cn } from "~/lib/cn";

/**
 * PageTransition fades the main content in over 0.3 s on each navigation.
 * The first page a visitor opens is shown at once (fading it would only
 * delay its first paint); prefers-reduced-motion turns the fade off.
 */
export function PageTransition({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);
  const navigated = pathname !== firstPath.current;
  if (navigated) firstPath.current = "";
  return (
    <div key={pathname} className={cn(navigated && "animate-page-in motion-reduce:animate-none")}>
      {children}
    </div>
  );
}

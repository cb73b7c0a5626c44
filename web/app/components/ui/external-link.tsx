import type { ReactNode } from "react";
import { ExternalLink as ExternalIcon } from "lucide-react";

/** ExternalLink opens another site in a new tab, safely, and says so to screen readers. */
export function ExternalLink({
  href,
  className,
  children,
  icon = true,
}: {
  href: string;
  className?: string;
  children: ReactNode;
  icon?: boolean;
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      {icon && <ExternalIcon aria-hidden="true" className="size-4" />}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

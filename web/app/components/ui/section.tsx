import { useId, type ReactNode } from "react";
import { cn } from "~/lib/cn";

/** Section is a page band with the site's width and spacing, and an optional heading. */
export function Section({
  id,
  title,
  lead,
  children,
  className,
  tone = "plain",
}: {
  id?: string;
  title?: string;
  lead?: string;
  children: ReactNode;
  className?: string;
  tone?: "plain" | "muted";
}) {
  const autoId = useId();
  const headingId = `${id ?? autoId}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={title ? headingId : undefined}
      className={cn(
        "py-16 sm:py-20",
        tone === "muted" && "bg-slate-50 dark:bg-slate-900/60",
        className,
      )}
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        {title && (
          <div className="mx-auto mb-10 max-w-2xl text-center sm:mb-12">
            <h2 id={headingId} className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
              {title}
            </h2>
            {lead && <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{lead}</p>}
          </div>
        )}
        {children}
      </div>
    </section>
  );
}

import { CheckCircle2 } from "lucide-react";
import { cn } from "~/lib/cn";

/** CheckList is a list of points, each marked with a check. */
export function CheckList({ items, className }: { items: readonly string[]; className?: string }) {
  return (
    <ul className={cn("space-y-3", className)}>
      {items.map((item) => (
        <li key={item} className="flex gap-3 text-slate-700 dark:text-slate-200">
          <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-300" />
          {item}
        </li>
      ))}
    </ul>
  );
}

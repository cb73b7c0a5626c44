import type { Stat } from "~/content/types";
import { cn } from "~/lib/cn";

/** StatsRow shows figures ("12+ Ventures") as a description list; the value is read after its label. */
export function StatsRow({
  stats,
  label,
  columns = 4,
  className,
}: {
  stats: readonly Stat[];
  label: string;
  /** 4: one row from 640 px on; 2: always two by two. */
  columns?: 2 | 4;
  className?: string;
}) {
  return (
    <dl aria-label={label} className={cn("grid grid-cols-2 gap-4", columns === 4 && "sm:grid-cols-4", className)}>
      {stats.map((s) => (
        <div
          key={s.label}
          className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">{s.label}</dt>
          <dd className="order-first text-3xl font-bold tracking-tight text-brand-700 sm:text-4xl dark:text-brand-300">{s.value}</dd>
        </div>
      ))}
    </dl>
  );
}

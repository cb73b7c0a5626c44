/** The analytics screen's chart over time (analytics.tsx): this period beside the one before, and its numbers as a table. */
import { Component, lazy, Suspense, useState, type ReactNode } from "react";
import { analyticsCopy as copy } from "~/content/console-analytics";
import { cn } from "~/lib/cn";
import type { Interval, Point, Summary } from "../data/analytics";
import { formatDateTime } from "../time";
import { LoadingState } from "../ui/states";
import { card, muted } from "./analytics-ui";
import { FilterButtons } from "./list-controls";

const AnalyticsChart = lazy(() => import("./analytics-chart"));

/** The height of the chart (its readout, h-5 mb-1, over h-60), kept while it loads or if it fails: nothing below moves when it comes. */
const chartHeight = "h-66";

/** ChartBoundary shows a line in the chart's place when its code cannot load or draw; the table still has the numbers. */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return <p className={cn("flex items-center justify-center text-sm", chartHeight, muted)}>{copy.chart.failed}</p>;
  }
}

/** stepLabel names a step of the series: its hour, or its day. */
function stepLabel(iso: string, interval: Interval): string {
  const d = new Date(iso);
  if (interval === "day") return new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short", year: "numeric" }).format(d);
  return formatDateTime(iso);
}

export function OverTime({ s, interval }: { s: Summary; interval: Interval }) {
  const [metric, setMetric] = useState<"visitors" | "views">("visitors");
  const total = metric === "visitors" ? s.visitors : s.views;
  const before = metric === "visitors" ? s.previous.visitors : s.previous.views;
  const label = copy.chart.description(copy.chart.metrics[metric], copy.format.int(total), copy.format.int(before), copy.chart.steps[interval]);
  return (
    <section aria-labelledby="chart-title" className={card}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="chart-title" className="text-lg font-semibold">
          {copy.chart.title}
        </h2>
        <FilterButtons label={copy.chart.metricLabel} options={(["visitors", "views"] as const).map((m) => ({ value: m, label: copy.chart.metrics[m] }))} value={metric} onChange={setMetric} />
      </div>
      <ul className={cn("mt-2 flex flex-wrap gap-4 text-xs", muted)}>
        <li className="flex items-center gap-1.5">
          <span aria-hidden="true" className="h-0.5 w-5 rounded bg-brand-600 dark:bg-brand-400" />
          {copy.chart.current}
        </li>
        <li className="flex items-center gap-1.5">
          <span aria-hidden="true" className="w-5 border-t-2 border-dashed border-slate-500 dark:border-slate-400" />
          {copy.chart.previous}
        </li>
      </ul>
      <div className="mt-2">
        <ChartBoundary>
          <Suspense
            fallback={
              <div className={cn("flex items-center justify-center", chartHeight)}>
                <LoadingState label={copy.chart.loading} />
              </div>
            }
          >
            <AnalyticsChart
              series={s.series}
              previous={s.previous.series}
              metric={metric}
              interval={interval}
              label={label}
              now={Date.now()}
              hover={(at, value, was) =>
                copy.chart.hover(stepLabel(at.toISOString(), interval), value === undefined ? "–" : copy.format.int(value), was === undefined ? "–" : copy.format.int(was))
              }
            />
          </Suspense>
        </ChartBoundary>
      </div>
      <SeriesTable series={s.series} previous={s.previous.series} interval={interval} />
    </section>
  );
}

/** SeriesTable is the chart's numbers as a table, behind "Show as table". */
function SeriesTable({ series, previous, interval }: { series: readonly Point[]; previous: readonly Point[]; interval: Interval }) {
  const [open, setOpen] = useState(false);
  const c = copy.chart.columns;
  return (
    <details className="mt-3" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer rounded-md text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300">
        {open ? copy.chart.hideTable : copy.chart.showTable}
      </summary>
      {open && (
        <div className="mt-2 max-h-96 overflow-auto rounded-lg border border-slate-200 dark:border-slate-800" tabIndex={0} role="region" aria-label={copy.chart.tableCaption}>
          <table className="w-full text-left text-sm tabular-nums" data-testid="series-table">
            <caption className="sr-only">{copy.chart.tableCaption}</caption>
            <thead className="sticky top-0 bg-slate-50 text-slate-600 dark:bg-slate-900 dark:text-slate-400">
              <tr>
                {[c.at, c.visitors, c.views, c.previousAt, c.previousVisitors, c.previousViews].map((h, i) => (
                  <th key={h} scope="col" className={cn("px-3 py-2 font-semibold", i !== 0 && i !== 3 && "text-right")}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {series.map((p, i) => {
                const b = previous[i];
                return (
                  <tr key={p.at}>
                    <th scope="row" className="px-3 py-1.5 font-normal">
                      <time dateTime={p.at}>{stepLabel(p.at, interval)}</time>
                    </th>
                    <td className="px-3 py-1.5 text-right">{copy.format.int(p.visitors)}</td>
                    <td className="px-3 py-1.5 text-right">{copy.format.int(p.views)}</td>
                    <td className="px-3 py-1.5">{b && <time dateTime={b.at}>{stepLabel(b.at, interval)}</time>}</td>
                    <td className="px-3 py-1.5 text-right">{b ? copy.format.int(b.visitors) : "–"}</td>
                    <td className="px-3 py-1.5 text-right">{b ? copy.format.int(b.views) : "–"}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}

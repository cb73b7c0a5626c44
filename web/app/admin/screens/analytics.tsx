/**
 * Analytics (issue 32): what the server counted over a period, beside the
 * period before it — the totals, a chart over time, the top pages, entry
 * and exit pages, sources, campaigns, browsers, operating systems, devices,
 * countries and goals. A row of any list filters the whole screen; the
 * period, the chart's step and the filters live in the URL
 * (analytics-params.ts). "Visitors now" and the numbers follow the live
 * feed: the server changes analytics_live while it counts, which reloads
 * the summary through the cache (coalesced, at most about once a second).
 *
 * The shell loads this screen with React.lazy, and it loads its chart
 * (uPlot) the same way: /admin's first load carries neither.
 */
import { Component, lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { X } from "lucide-react";
import { analyticsCopy as copy } from "~/content/console-analytics";
import { buttonClass } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { ANALYTICS_TABLE, analyticsSummary, conversionTotals, FILTER_KEYS, type Filters, type FilterKey, type Interval, type Point, type Summary } from "../data/analytics";
import { useConsole } from "../data/console-context";
import { useRead } from "../data/use-read";
import { navigate, useLocation, ConsoleLink } from "../router";
import { useDocumentTitle } from "../ui/document-title";
import { LoadingState, ProblemState } from "../ui/states";
import { formatDateTime } from "../time";
import { csvFileName } from "./csv";
import { analyticsCsv } from "./analytics-csv";
import {
  addDays,
  analyticsSearch,
  customProblem,
  dayString,
  parseDay,
  periodRange,
  PERIODS,
  readAnalyticsParams,
  summaryArgs,
  withFilter,
  withoutFilter,
  type AnalyticsParams,
  type Period,
} from "./analytics-params";
import { ExportButton, FilterButtons } from "./list-controls";
import { LiveMark } from "./list-screen";

const AnalyticsChart = lazy(() => import("./analytics-chart"));

/** How many rows a list shows before "Show all". */
export const LIST_ROWS = 10;

const card = "rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900/40";
const muted = "text-slate-600 dark:text-slate-400";

/** useAnalyticsParams is the screen's period and filters from the URL, and the way to change them. */
function useAnalyticsParams() {
  const { pathname, search } = useLocation();
  const params = useMemo(() => readAnalyticsParams(search), [search]);
  const href = useCallback((next: AnalyticsParams) => pathname + analyticsSearch(next), [pathname]);
  const go = useCallback((next: AnalyticsParams) => navigate(href(next)), [href]);
  return { params, href, go };
}

export function AnalyticsScreen() {
  useDocumentTitle(copy.title);
  const { client } = useConsole();
  const { params, href, go } = useAnalyticsParams();
  // Periods are whole days: the request stays the same until midnight, whatever the live feed reloads.
  const today = dayString(new Date());
  const day = parseDay(today)!;
  const range = useMemo(() => periodRange(params, day), [params, today]); // eslint-disable-line react-hooks/exhaustive-deps
  const args = useMemo(() => summaryArgs(params, day), [params, today]); // eslint-disable-line react-hooks/exhaustive-deps
  const request = useRead({ table: ANALYTICS_TABLE, read: "summary", params: args }, (signal) => analyticsSummary(client, args, signal));
  const shown = request.phase === "done" ? request.data : request.phase === "loading" ? request.last?.data : undefined;

  // What the status region says once the numbers of a new period or filter are in (not on each live reload).
  const [status, setStatus] = useState("");
  const announced = useRef("");
  const argsKey = JSON.stringify(args);
  useEffect(() => {
    if (request.phase !== "done" || announced.current === argsKey) return;
    announced.current = argsKey;
    setStatus(copy.status(request.data.visitors, request.data.views));
  }, [request, argsKey]);

  const setPeriod = (period: Period) => {
    if (period !== "custom") return go({ ...params, period, from: undefined, to: undefined, interval: undefined });
    // Custom starts from the period shown, to be changed.
    go({ ...params, period, from: dayString(range.since), to: dayString(addDays(range.until, -1)), interval: undefined });
  };
  const filters = FILTER_KEYS.filter((k) => params.filters[k]);

  return (
    <section aria-labelledby="screen-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="screen-title" tabIndex={-1} className="text-2xl font-bold tracking-tight focus:outline-none">
            {copy.title}
          </h1>
          <LiveMark />
          {shown && <VisitorsNow n={shown.visitors_now} />}
        </div>
        <ExportButton
          request={async () => (shown ? { data: analyticsCsv(shown, params), error: null } : { data: null, error: new Error(copy.notLoaded) })}
          fileName={() => csvFileName("analytics", { filter: params.period === "custom" ? `${params.from}-${params.to}` : params.period }, new Date())}
        />
      </div>
      <p className={cn("-mt-2 text-sm", muted)}>{copy.intro}</p>

      <div role="group" aria-label={copy.controlsLabel} className="flex flex-col gap-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
          <FilterButtons label={copy.periodLabel} options={PERIODS.map((p) => ({ value: p, label: copy.periods[p] }))} value={params.period} onChange={setPeriod} />
          {range.hourly && (
            <FilterButtons<Interval>
              label={copy.intervalLabel}
              options={(["hour", "day"] as const).map((i) => ({ value: i, label: copy.intervals[i] }))}
              value={range.interval}
              onChange={(interval) => go({ ...params, interval })}
            />
          )}
        </div>
        {params.period === "custom" && <CustomPeriod key={`${params.from}/${params.to}`} params={params} onApply={go} />}
        {filters.length > 0 && (
          <ul aria-label={copy.filtersLabel} className="flex flex-wrap items-center gap-2">
            {filters.map((k) => (
              <li key={k}>
                <FilterChip name={copy.filterNames[k]} value={params.filters[k]!} onRemove={() => go(withoutFilter(params, k))} />
              </li>
            ))}
            {filters.length > 1 && (
              <li>
                <button type="button" onClick={() => go(withoutFilter(params))} className={cn("rounded-md px-2 py-1 text-sm font-medium underline underline-offset-2 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:hover:text-white", muted)}>
                  {copy.clearFilters}
                </button>
              </li>
            )}
          </ul>
        )}
      </div>

      <p role="status" aria-live="polite" className="sr-only" data-testid="analytics-status">
        {status}
      </p>
      <div aria-busy={request.phase === "loading"} className="flex flex-col gap-4">
        {request.phase === "failed" ? (
          <ProblemState problem={request.problem} onRetry={request.reload} />
        ) : !shown ? (
          <LoadingState />
        ) : (
          <>
            <div aria-hidden="true" className={cn("-mt-2 h-0.5 rounded-full", request.phase === "loading" ? "bg-brand-500 motion-safe:animate-pulse" : "bg-transparent")} />
            {!shown.enabled && (
              <div role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100" data-testid="analytics-off">
                <strong className="font-semibold">{copy.off.title}.</strong> {copy.off.text}
              </div>
            )}
            {shown.filters_from && filters.length > 0 && (
              <div role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100" data-testid="analytics-filters-from">
                <strong className="font-semibold">{copy.filtersFrom.title}.</strong> {copy.filtersFrom.text(dayLabel(shown.filters_from))}
              </div>
            )}
            <Stats s={shown} />
            <OverTime s={shown} interval={range.interval} />
            <div className="grid gap-4 lg:grid-cols-2">
              <TopList
                title={copy.lists.pages.title}
                filtered={filters.length > 0}
                tabs={[
                  pageTab("pages", shown, "path", href, params),
                  pageTab("entry_pages", shown, "entry_page", href, params),
                  pageTab("exit_pages", shown, "exit_page", href, params),
                ]}
              />
              <TopList
                title={copy.lists.sources.title}
                filtered={filters.length > 0}
                tabs={[
                  {
                    id: "sources",
                    label: copy.lists.sources.tabs.sources,
                    column: copy.columns.source,
                    rows: shown.sources.map((r) => ({ key: r.source, label: r.source, visitors: r.visitors, filter: { source: r.source } })),
                    filterName: copy.filterNames.source,
                  },
                  {
                    id: "campaigns",
                    label: copy.lists.sources.tabs.campaigns,
                    column: copy.columns.campaign,
                    rows: shown.campaigns.map((r) => ({
                      key: `${r.utm_source}/${r.utm_medium}/${r.utm_campaign}`,
                      label: campaignLabel(r),
                      visitors: r.visitors,
                      filter: campaignFilter(r),
                    })),
                    filterName: copy.filterNames.utm_campaign,
                  },
                ].map((t) => ({ ...t, href: (f: Filters) => href(withFilter(params, f)) }))}
              />
              <TopList
                title={copy.lists.devices.title}
                filtered={filters.length > 0}
                tabs={[
                  valueTab("browsers", shown, "browser", copy.columns.browser, href, params),
                  valueTab("oses", shown, "os", copy.columns.os, href, params),
                  valueTab("devices", shown, "device", copy.columns.device, href, params),
                ]}
              />
              <TopList title={copy.lists.countries.title} filtered={filters.length > 0} tabs={[valueTab("countries", shown, "country", copy.columns.country, href, params)]} />
            </div>
            <Goals s={shown} />
            <p className={cn("text-xs", muted)} data-testid="not-counted">
              {copy.notCounted(shown.not_counted)}
            </p>
          </>
        )}
      </div>
    </section>
  );
}

function VisitorsNow({ n }: { n: number }) {
  return (
    <span
      data-testid="visitors-now"
      title={copy.visitorsNowHint}
      className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-800 dark:bg-slate-800 dark:text-slate-200"
    >
      <span aria-hidden="true" className={cn("size-2 rounded-full", n > 0 ? "bg-emerald-500" : "bg-slate-400")} />
      {copy.visitorsNow(n)}
    </span>
  );
}

function FilterChip({ name, value, onRemove }: { name: string; value: string; onRemove: () => void }) {
  return (
    <button
      type="button"
      onClick={onRemove}
      aria-label={copy.removeFilter(name, value)}
      className="inline-flex max-w-full items-center gap-1.5 rounded-full border border-brand-200 bg-brand-50 py-1 pl-3 pr-2 text-sm text-brand-900 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-brand-800 dark:bg-brand-900/40 dark:text-brand-100 dark:hover:bg-brand-900"
    >
      <span className="truncate">
        {name}: <span className="font-semibold">{value}</span>
      </span>
      <X aria-hidden="true" className="size-4 shrink-0" />
    </button>
  );
}

/** CustomPeriod is the form of a custom period's first and last day. */
function CustomPeriod({ params, onApply }: { params: AnalyticsParams; onApply: (p: AnalyticsParams) => void }) {
  const [from, setFrom] = useState(params.from ?? "");
  const [to, setTo] = useState(params.to ?? "");
  const [problem, setProblem] = useState<string>();
  const field =
    "h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:[color-scheme:dark]";
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      aria-label={copy.custom.legend}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const p = customProblem(from, to);
        setProblem(p && copy.custom.problems[p]);
        if (!p) onApply({ ...params, from, to, interval: undefined });
      }}
    >
      <label className="flex flex-col gap-1 text-sm font-medium">
        {copy.custom.from}
        <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} className={field} aria-describedby={problem ? "custom-problem" : undefined} aria-invalid={!!problem} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {copy.custom.to}
        <input type="date" value={to} onChange={(e) => setTo(e.target.value)} className={field} aria-describedby={problem ? "custom-problem" : undefined} aria-invalid={!!problem} />
      </label>
      <button type="submit" className={buttonClass("secondary", "sm", "h-10")}>
        {copy.custom.apply}
      </button>
      {problem && (
        <p id="custom-problem" role="alert" className="w-full text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
    </form>
  );
}

type Stat = { key: keyof typeof copy.stats; value: string; change: ReturnType<typeof copy.change>; lowerIsBetter?: boolean };

function Stats({ s }: { s: Summary }) {
  const f = copy.format;
  const p = s.previous;
  const conv = conversionTotals(s);
  const stats: Stat[] = [
    { key: "visitors", value: f.int(s.visitors), change: copy.change(s.visitors, p.visitors, "count") },
    { key: "visits", value: f.int(s.visits), change: copy.change(s.visits, p.visits, "count") },
    { key: "views", value: f.int(s.views), change: copy.change(s.views, p.views, "count") },
    { key: "views_per_visit", value: f.ratio(s.views_per_visit), change: copy.change(s.views_per_visit, p.visits ? p.views / p.visits : undefined, "count") },
    { key: "bounce_rate", value: f.percent(s.bounce_rate), change: copy.change(s.bounce_rate, p.visits ? p.bounce_rate : undefined, "rate"), lowerIsBetter: true },
    { key: "visit_duration", value: f.duration(s.visit_duration), change: copy.change(s.visit_duration, p.visits ? p.visit_duration : undefined, "count") },
    { key: "conversions", value: f.int(conv.count), change: undefined },
    { key: "conversion_rate", value: f.percent(conv.rate), change: undefined },
  ];
  return (
    <section aria-labelledby="stats-title">
      <h2 id="stats-title" className="sr-only">
        {copy.statsLabel}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {stats.map((st) => (
          <div key={st.key} className={card} data-testid={`stat-${st.key}`}>
            <dt className={cn("text-sm font-medium", muted)}>{copy.stats[st.key]}</dt>
            <dd className="mt-1 text-2xl font-bold tabular-nums">{st.value}</dd>
            {st.change && (
              <dd
                className={cn(
                  "mt-0.5 text-xs font-medium tabular-nums",
                  st.change.text.startsWith("±") ? muted : st.change.up !== !!st.lowerIsBetter ? "text-emerald-700 dark:text-emerald-300" : "text-rose-700 dark:text-rose-300",
                )}
              >
                <span aria-hidden="true">{st.change.text}</span>
                <span className="sr-only">{st.change.spoken}</span>
              </dd>
            )}
          </div>
        ))}
      </dl>
    </section>
  );
}

/** ChartBoundary shows a line in the chart's place when its code cannot load or draw; the table still has the numbers. */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return <p className={cn("flex h-60 items-center justify-center text-sm", muted)}>{copy.chart.failed}</p>;
  }
}

/** dayLabel names the UTC day that begins at iso ("Mar 2, 2026 (UTC)" in en-US): rollups keep UTC days. */
function dayLabel(iso: string): string {
  return `${new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso))} (UTC)`;
}

/** stepLabel names a step of the series: its hour, or its day. */
function stepLabel(iso: string, interval: Interval): string {
  const d = new Date(iso);
  if (interval === "day") return new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short", year: "numeric" }).format(d);
  return formatDateTime(iso);
}

function OverTime({ s, interval }: { s: Summary; interval: Interval }) {
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
          <Suspense fallback={<LoadingState label={copy.chart.loading} />}>
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

type ListRow = { key: string; label: string; visitors: number; views?: number; filter: Filters };
type Tab = {
  id: string;
  label: string;
  /** The name of the first column: what the rows are. */
  column: string;
  /** The name of the second count's column (views, or visits for entry and exit pages); none: visitors only. */
  viewsColumn?: string;
  rows: ListRow[];
  /** The filter a row sets, as the chips name it. */
  filterName: string;
  href: (f: Filters) => string;
};

type Href = (p: AnalyticsParams) => string;

function pageTab(list: "pages" | "entry_pages" | "exit_pages", s: Summary, key: "path" | "entry_page" | "exit_page", href: Href, params: AnalyticsParams): Tab {
  return {
    id: list,
    label: copy.lists.pages.tabs[list],
    column: copy.columns.path,
    viewsColumn: list === "pages" ? copy.columns.views : copy.columns.visits,
    rows: s[list].map((p) => ({ key: p.path, label: p.path, visitors: p.visitors, views: p.views, filter: { [key]: p.path } })),
    filterName: copy.filterNames[key],
    href: (f) => href(withFilter(params, f)),
  };
}

/** valueLabel shows a dimension's value: a country's name for its code, a device class capitalised. */
export function valueLabel(key: FilterKey, value: string): string {
  // ZZ: the country table's "unknown" (a private or reserved address).
  if (key === "country" && value === "ZZ") return copy.unknownCountry;
  if (key === "country" && /^[A-Z]{2}$/.test(value)) {
    try {
      return new Intl.DisplayNames(["en"], { type: "region" }).of(value) ?? value;
    } catch {
      return value;
    }
  }
  if (key === "device") return value.charAt(0).toUpperCase() + value.slice(1);
  return value;
}

function valueTab(list: "browsers" | "oses" | "devices" | "countries", s: Summary, key: FilterKey, column: string, href: Href, params: AnalyticsParams): Tab {
  return {
    id: list,
    label: list === "countries" ? copy.lists.countries.title : copy.lists.devices.tabs[list],
    column,
    rows: s[list].map((r) => ({ key: r.value, label: valueLabel(key, r.value), visitors: r.visitors, filter: { [key]: r.value } })),
    filterName: copy.filterNames[key],
    href: (f) => href(withFilter(params, f)),
  };
}

function campaignLabel(r: { utm_source: string; utm_medium: string; utm_campaign: string }): string {
  const via = [r.utm_source, r.utm_medium].filter(Boolean).join(" / ");
  return r.utm_campaign ? (via ? `${r.utm_campaign} (${via})` : r.utm_campaign) : via;
}

/** campaignFilter is the filter of a campaign's row: its source, medium and name, those it has. */
function campaignFilter(r: { utm_source: string; utm_medium: string; utm_campaign: string }): Filters {
  const f: Filters = {};
  if (r.utm_source) f.utm_source = r.utm_source;
  if (r.utm_medium) f.utm_medium = r.utm_medium;
  if (r.utm_campaign) f.utm_campaign = r.utm_campaign;
  return f;
}

/** TopList is a card of one or more lists (chosen with buttons), each row a link that filters the screen by it. */
function TopList({ title, tabs, filtered }: { title: string; tabs: Tab[]; filtered: boolean }) {
  const [chosen, setChosen] = useState(tabs[0]!.id);
  const [all, setAll] = useState(false);
  const tab = tabs.find((t) => t.id === chosen) ?? tabs[0]!;
  const id = `list-${tabs[0]!.id}`;
  const max = Math.max(1, ...tab.rows.map((r) => r.visitors));
  const rows = all ? tab.rows : tab.rows.slice(0, LIST_ROWS);
  return (
    <section aria-labelledby={id} className={card}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {tabs.length > 1 && (
          <FilterButtons
            label={title}
            options={tabs.map((t) => ({ value: t.id, label: t.label }))}
            value={tab.id}
            onChange={(v) => {
              setChosen(v);
              setAll(false);
            }}
          />
        )}
      </div>
      {tab.rows.length === 0 ? (
        <p className={cn("mt-3 text-sm", muted)}>{filtered ? copy.noneCountedFiltered : copy.noneCounted}</p>
      ) : (
        <table className="mt-3 w-full table-fixed text-sm" data-testid={`list-${tab.id}`}>
          <caption className="sr-only">{tab.label}</caption>
          <thead className={muted}>
            <tr>
              <th scope="col" className="pb-1 text-left font-semibold">
                {tab.column}
              </th>
              <th scope="col" className="w-20 pb-1 text-right font-semibold">
                {copy.columns.visitors}
              </th>
              {tab.viewsColumn && (
                <th scope="col" className="w-16 pb-1 text-right font-semibold">
                  {tab.viewsColumn}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row" className="relative py-0.5 pr-2 text-left font-normal">
                  <span aria-hidden="true" className="absolute inset-y-0.5 left-0 rounded bg-brand-50 dark:bg-brand-900/40" style={{ width: `${(r.visitors / max) * 100}%` }} />
                  <ConsoleLink
                    href={tab.href(r.filter)}
                    className="relative block truncate rounded px-2 py-1 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
                    title={r.label}
                  >
                    <span className="sr-only">{copy.filterBy(tab.filterName)}: </span>
                    {r.label}
                  </ConsoleLink>
                </th>
                <td className="py-0.5 text-right tabular-nums">{copy.format.int(r.visitors)}</td>
                {tab.viewsColumn && <td className="py-0.5 text-right tabular-nums">{copy.format.int(r.views ?? 0)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {tab.rows.length > LIST_ROWS && (
        <button type="button" onClick={() => setAll(!all)} className="mt-2 rounded-md text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300">
          {all ? copy.showFewer : copy.showAll(tab.rows.length)}
        </button>
      )}
    </section>
  );
}

function Goals({ s }: { s: Summary }) {
  return (
    <section aria-labelledby="goals-title" className={card}>
      <h2 id="goals-title" className="text-lg font-semibold">
        {copy.lists.conversions.title}
      </h2>
      <table className="mt-3 w-full text-sm" data-testid="list-conversions">
        <caption className="sr-only">{copy.lists.conversions.title}</caption>
        <thead className={cn("text-xs sm:text-sm", muted)}>
          <tr>
            <th scope="col" className="pb-1 text-left align-bottom font-semibold">
              {copy.columns.goal}
            </th>
            {[copy.columns.count, copy.columns.visitors, copy.columns.rate].map((h) => (
              <th key={h} scope="col" className="pb-1 pl-2 text-right align-bottom font-semibold sm:pl-3">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {s.conversions.map((c) => (
            <tr key={c.goal}>
              <th scope="row" className="py-1.5 pr-2 text-left font-normal">
                {copy.goals[c.goal] ?? c.goal}
              </th>
              {[copy.format.int(c.count), copy.format.int(c.visitors), copy.format.percent(c.rate)].map((v, i) => (
                <td key={i} className="py-1.5 pl-2 text-right tabular-nums sm:pl-3">
                  {v}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

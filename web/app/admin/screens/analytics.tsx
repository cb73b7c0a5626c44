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
 * (uPlot) the same way: /admin's first load carries neither. Its chart is
 * in analytics-over-time.tsx, its lists in analytics-lists.tsx.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { X } from "lucide-react";
import { analyticsCopy as copy } from "~/content/console-analytics";
import { buttonClass } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { ANALYTICS_TABLE, analyticsSummary, conversionTotals, FILTER_KEYS, type Interval, type Summary } from "../data/analytics";
import { useConsole } from "../data/console-context";
import { useRead } from "../data/use-read";
import { navigate, useLocation } from "../router";
import { useDocumentTitle } from "../ui/document-title";
import { LoadingState, ProblemState } from "../ui/states";
import { csvFileName } from "./csv";
import { analyticsCsv } from "./analytics-csv";
import { Goals, pageTab, sourceTabs, TopList, valueTab } from "./analytics-lists";
import { OverTime } from "./analytics-over-time";
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
  withoutFilter,
  type AnalyticsParams,
  type Period,
} from "./analytics-params";
import { card, muted } from "./analytics-ui";
import { ExportButton, FilterButtons } from "./list-controls";
import { LiveMark } from "./list-screen";

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
                tabs={sourceTabs(shown, href, params)}
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

/** dayLabel names the UTC day that begins at iso ("Mar 2, 2026 (UTC)" in en-US): rollups keep UTC days. */
function dayLabel(iso: string): string {
  return `${new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso))} (UTC)`;
}

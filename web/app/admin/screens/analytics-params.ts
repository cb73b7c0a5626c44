/**
 * The analytics screen's state in the URL's query, so a reload or a shared
 * link shows the same numbers: the period (?period=7d, or custom with
 * from/to days), the step of the chart (?interval=hour) and the filters,
 * each under the rpc's own name (?path=/about&source=Direct).
 *
 * Periods are whole days of the viewer's time zone, as the console shows
 * times: "7 days" is today and the six days before it, until midnight
 * tonight, so the period before it is the seven whole days before.
 */
import { FILTER_KEYS, type Filters, type Interval, type SummaryArgs } from "../data/analytics";

export const PERIODS = ["today", "7d", "30d", "12mo", "custom"] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = "30d";

/** The longest period the server sums (400 days), and the longest an hourly series may cover. */
export const MAX_DAYS = 400;
export const MAX_HOURLY_DAYS = 31;

export type AnalyticsParams = {
  period: Period;
  /** The first and last day of a custom period, YYYY-MM-DD. */
  from?: string;
  to?: string;
  /** The chart's step when chosen; else the period's own (hours up to two days). */
  interval?: Interval;
  filters: Filters;
};

/** A period as the server is asked for it: its start and end (end excluded), its length in days and the chart's step. */
export type Range = { since: Date; until: Date; days: number; interval: Interval; hourly: boolean };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** parseDay reads YYYY-MM-DD as the start of that day in the viewer's zone; undefined when it is no such day. */
export function parseDay(s: string | undefined | null): Date | undefined {
  const m = DAY.exec(s ?? "");
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const date = new Date(y, mo, d);
  return date.getFullYear() === y && date.getMonth() === mo && date.getDate() === d ? date : undefined;
}

/** dayString writes a time's day in the viewer's zone as YYYY-MM-DD. */
export function dayString(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** addDays is the start of the day n days after d's (calendar days, so a change of summer time is no matter). */
export function addDays(d: Date, n: number): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
}

/** daysBetween counts the calendar days from a to b (both starts of days). */
function daysBetween(a: Date, b: Date): number {
  return Math.round((Date.UTC(b.getFullYear(), b.getMonth(), b.getDate()) - Date.UTC(a.getFullYear(), a.getMonth(), a.getDate())) / 86_400_000);
}

/** customProblem says what is wrong with a custom period's days, or undefined when it is a period the server sums. */
export function customProblem(from: string | undefined, to: string | undefined): "missing" | "order" | "long" | undefined {
  const a = parseDay(from);
  const b = parseDay(to);
  if (!a || !b) return "missing";
  if (b < a) return "order";
  if (daysBetween(a, b) + 1 > MAX_DAYS) return "long";
  return undefined;
}

/** readAnalyticsParams reads the screen's state from a query string; a period it cannot use falls back to the default. */
export function readAnalyticsParams(search: string): AnalyticsParams {
  const p = new URLSearchParams(search);
  const filters: Filters = {};
  for (const k of FILTER_KEYS) {
    const v = p.get(k);
    if (v) filters[k] = v;
  }
  let period = (PERIODS as readonly string[]).includes(p.get("period") ?? "") ? (p.get("period") as Period) : DEFAULT_PERIOD;
  const from = p.get("from") ?? undefined;
  const to = p.get("to") ?? undefined;
  if (period === "custom" && customProblem(from, to)) period = DEFAULT_PERIOD;
  const interval = p.get("interval");
  return {
    period,
    ...(period === "custom" ? { from, to } : {}),
    ...(interval === "hour" || interval === "day" ? { interval } : {}),
    filters,
  };
}

/** analyticsSearch writes the screen's state as a query string ("" for the defaults), in a fixed order. */
export function analyticsSearch(params: AnalyticsParams): string {
  const p = new URLSearchParams();
  if (params.period !== DEFAULT_PERIOD) p.set("period", params.period);
  if (params.period === "custom") {
    if (params.from) p.set("from", params.from);
    if (params.to) p.set("to", params.to);
  }
  if (params.interval) p.set("interval", params.interval);
  for (const k of FILTER_KEYS) {
    const v = params.filters[k];
    if (v) p.set(k, v);
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** periodRange is the period of params on the day of now: its bounds, length and the chart's step. */
export function periodRange(params: AnalyticsParams, now: Date): Range {
  const today = addDays(now, 0);
  let since: Date;
  let until = addDays(today, 1);
  switch (params.period) {
    case "today":
      since = today;
      break;
    case "7d":
      since = addDays(today, -6);
      break;
    case "30d":
      since = addDays(today, -29);
      break;
    case "12mo":
      since = new Date(today.getFullYear() - 1, today.getMonth(), today.getDate() + 1);
      break;
    case "custom":
      since = parseDay(params.from) ?? addDays(today, -29);
      until = addDays(parseDay(params.to) ?? today, 1);
      break;
  }
  const days = daysBetween(since, until);
  const hourly = days <= MAX_HOURLY_DAYS;
  const interval: Interval = hourly && (params.interval ?? (days <= 2 ? "hour" : "day")) === "hour" ? "hour" : "day";
  return { since, until, days, interval, hourly };
}

/** summaryArgs is what the rpc is asked for params on the day of now. */
export function summaryArgs(params: AnalyticsParams, now: Date): SummaryArgs {
  const r = periodRange(params, now);
  const filters = Object.keys(params.filters).length ? { filters: params.filters } : {};
  return { since: r.since.toISOString(), until: r.until.toISOString(), interval: r.interval, ...filters };
}

/** withFilter is params with the filters of a clicked row added (a campaign sets its source, medium and name). */
export function withFilter(params: AnalyticsParams, add: Filters): AnalyticsParams {
  return { ...params, filters: { ...params.filters, ...add } };
}

/** withoutFilter is params without one filter (none: without every filter). */
export function withoutFilter(params: AnalyticsParams, key?: keyof Filters): AnalyticsParams {
  if (!key) return { ...params, filters: {} };
  const filters = { ...params.filters };
  delete filters[key];
  return { ...params, filters };
}

/**
 * The analytics the binary counts (docs/analytics.md), as the console reads
 * them: rpc("analytics_summary") — POST /rest/v1/rpc/analytics_summary with
 * a period, the step of its series and the filters — answers the summary of
 * that period and of the one of the same length before it. The exposed
 * table analytics_live changes (at most once a second) while visitors are
 * counted: its live changes reload the reads kept under it.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import type { ConsoleClient } from "./client";
import type { Database } from "./database";

/** The table whose live changes say the counts moved. */
export const ANALYTICS_TABLE = "analytics_live";

export type Interval = "hour" | "day";

/** The dimensions a summary can be narrowed by, as the rpc names them. */
export const FILTER_KEYS = ["path", "entry_page", "exit_page", "source", "utm_source", "utm_medium", "utm_campaign", "browser", "os", "device", "country"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type Filters = Partial<Record<FilterKey, string>>;

export type SummaryArgs = { since: string; until: string; interval: Interval; filters?: Filters };

export type PageCount = { path: string; views: number; visitors: number };
export type SourceCount = { source: string; visitors: number };
export type CampaignCount = { utm_source: string; utm_medium: string; utm_campaign: string; visitors: number };
export type ValueCount = { value: string; visitors: number };
export type GoalCount = { goal: string; count: number; visitors: number; rate: number };
export type Point = { at: string; visitors: number; views: number };

export type Totals = {
  since: string;
  until: string;
  visitors: number;
  visits: number;
  views: number;
  bounce_rate: number;
  visit_duration: number;
  series: Point[];
};

export type Summary = Totals & {
  /** false when the server counts nothing (studio serve --analytics off). */
  enabled: boolean;
  interval: Interval;
  views_per_visit: number;
  /** Visitors of the last 5 minutes, whatever the period and filters. */
  visitors_now: number;
  pages: PageCount[];
  entry_pages: PageCount[];
  exit_pages: PageCount[];
  sources: SourceCount[];
  campaigns: CampaignCount[];
  browsers: ValueCount[];
  oses: ValueCount[];
  devices: ValueCount[];
  countries: ValueCount[];
  conversions: GoalCount[];
  /** Visitors who reached any goal, when the server says (a visitor may reach several goals). */
  converted_visitors?: number;
  not_counted: { bot: number; gpc: number; dnt: number; prefetch_not_shown: number; dropped: number };
  /** The period of the same length just before. */
  previous: Totals;
  /**
   * With filters, the first day they apply to when the period begins
   * before it (older days are kept only as daily rollups): what is shown
   * counts from it on.
   */
  filters_from?: string;
};

/**
 * The generated Database (database.ts) has no Functions yet: the rpc is
 * typed here, so .rpc checks its name, arguments and answer.
 */
type WithAnalytics = {
  public: Omit<Database["public"], "Functions"> & {
    Functions: { analytics_summary: { Args: SummaryArgs; Returns: Summary } };
  };
};

/** analyticsSummary asks for the summary of args; signal aborts it. */
export function analyticsSummary(client: ConsoleClient, args: SummaryArgs, signal: AbortSignal) {
  const typed = client as unknown as SupabaseClient<WithAnalytics>;
  return typed.rpc("analytics_summary", args).abortSignal(signal);
}

/**
 * conversionTotals are the conversions of every goal and the share of
 * visitors who reached one: converted_visitors when the server sends it,
 * else the goals' visitors added up (at most every visitor), which counts
 * twice a visitor who reached two goals.
 */
export function conversionTotals(s: Summary): { count: number; rate: number } {
  const count = s.conversions.reduce((n, c) => n + c.count, 0);
  const converted = s.converted_visitors ?? s.conversions.reduce((n, c) => n + c.visitors, 0);
  return { count, rate: s.visitors > 0 ? Math.min(1, converted / s.visitors) : 0 };
}

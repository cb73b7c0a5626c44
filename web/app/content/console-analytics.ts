/**
 * Copy of the console's analytics screen (app/admin/screens/analytics.tsx).
 * Apart from console.ts, because only that screen's chunk, loaded when it
 * is opened, needs it: /admin's first load stays within its budget.
 */
import type { FilterKey } from "~/admin/data/analytics";

type Change = { up: boolean; text: string; spoken: string } | undefined;

const int = (n: number) => Math.round(n).toLocaleString("en");

/** duration shows seconds as "1m 05s", "42s". */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

/** percent shows a fraction as "42%" (one decimal under 10%). */
export function percent(f: number): string {
  const p = f * 100;
  return `${p > 0 && p < 10 ? p.toFixed(1).replace(/\.0$/, "") : Math.round(p)}%`;
}

export const analyticsCopy = {
  title: "Analytics",
  intro: "Pages shown to people, counted by the server with no cookie and no script.",
  off: {
    title: "Analytics are off",
    text: "Analytics are off on this server (studio serve --analytics off). Nothing is counted until it runs with --analytics on.",
  },
  filtersFrom: {
    title: "Filters cover recent days only",
    text: (day: string) =>
      `Days before ${day} are kept as daily totals, which filters cannot narrow: the figures shown count from ${day} on.`,
  },
  visitorsNow: (n: number) => (n === 1 ? "1 visitor now" : `${int(n)} visitors now`),
  visitorsNowHint: "Visitors in the last 5 minutes, whatever the period and filters",
  controlsLabel: "Period and filters",
  periodLabel: "Period",
  periods: { today: "Today", "7d": "7 days", "30d": "30 days", "12mo": "12 months", custom: "Custom" },
  custom: {
    legend: "Custom period",
    from: "From",
    to: "To",
    apply: "Show",
    problems: {
      missing: "Enter the first and the last day.",
      order: "The first day must not come after the last.",
      long: "A period can be at most 400 days.",
    },
  },
  intervalLabel: "Chart step",
  intervals: { hour: "Hours", day: "Days" },
  filtersLabel: "Filters",
  filterNames: {
    path: "Page",
    entry_page: "Entry page",
    exit_page: "Exit page",
    source: "Source",
    utm_source: "UTM source",
    utm_medium: "UTM medium",
    utm_campaign: "Campaign",
    browser: "Browser",
    os: "OS",
    device: "Device",
    country: "Country",
  } satisfies Record<FilterKey, string>,
  removeFilter: (name: string, value: string) => `Remove filter ${name}: ${value}`,
  clearFilters: "Clear filters",
  filterBy: (name: string) => `Filter by ${name.toLowerCase()}`,
  statsLabel: "Totals",
  stats: {
    visitors: "Visitors",
    visits: "Visits",
    views: "Views",
    views_per_visit: "Views per visit",
    bounce_rate: "Bounce rate",
    visit_duration: "Visit duration",
    conversions: "Conversions",
    conversion_rate: "Conversion rate",
  },
  format: { int, duration, percent, ratio: (n: number) => n.toFixed(2).replace(/\.?0+$/, "") || "0" },
  /** change compares a number with the period before's: relative for counts, in points for rates; undefined when there is nothing to compare. */
  change(now: number, before: number | undefined, kind: "count" | "rate"): Change {
    if (before === undefined) return undefined;
    if (kind === "rate") {
      const pts = Math.round((now - before) * 100);
      if (pts === 0) return { up: false, text: "±0 pts", spoken: "the same as the period before" };
      return { up: pts > 0, text: `${pts > 0 ? "+" : "−"}${Math.abs(pts)} pts`, spoken: `${Math.abs(pts)} points ${pts > 0 ? "more" : "fewer"} than the period before` };
    }
    if (before === 0) return now === 0 ? { up: false, text: "±0%", spoken: "the same as the period before" } : undefined;
    const pct = Math.round(((now - before) / before) * 100);
    if (pct === 0) return { up: false, text: "±0%", spoken: "the same as the period before" };
    return { up: pct > 0, text: `${pct > 0 ? "+" : "−"}${Math.abs(pct)}%`, spoken: `${Math.abs(pct)}% ${pct > 0 ? "more" : "fewer"} than the period before` };
  },
  chart: {
    title: "Over time",
    metricLabel: "Chart of",
    metrics: { visitors: "Visitors", views: "Views" },
    current: "This period",
    previous: "Period before",
    loading: "Loading the chart…",
    failed: "The chart could not be loaded. The numbers are in the table below.",
    showTable: "Show as table",
    hideTable: "Hide the table",
    /** What the chart shows, for those who do not see it. */
    description: (metric: string, total: string, previousTotal: string, steps: string) =>
      `Chart of ${metric.toLowerCase()} per ${steps}: ${total} this period, ${previousTotal} the period before. The numbers are in the table below it.`,
    steps: { hour: "hour", day: "day" },
    tableCaption: "Visitors and views over time, with the period before",
    columns: { at: "Time", visitors: "Visitors", views: "Views", previousAt: "Period before", previousVisitors: "Visitors before", previousViews: "Views before" },
    hover: (when: string, value: string, before: string) => `${when}: ${value} (period before: ${before})`,
  },
  lists: {
    pages: { title: "Pages", tabs: { pages: "Top pages", entry_pages: "Entry pages", exit_pages: "Exit pages" } },
    sources: { title: "Sources", tabs: { sources: "Sources", campaigns: "Campaigns" } },
    devices: { title: "Devices", tabs: { browsers: "Browsers", oses: "Operating systems", devices: "Devices" } },
    countries: { title: "Countries" },
    conversions: { title: "Goals" },
  },
  columns: {
    path: "Page",
    visitors: "Visitors",
    views: "Views",
    visits: "Visits",
    source: "Source",
    campaign: "Campaign",
    browser: "Browser",
    os: "Operating system",
    device: "Device",
    country: "Country",
    goal: "Goal",
    count: "Conversions",
    rate: "Rate",
  },
  goals: {
    contact_message_sent: "Contact message sent",
    waitlist_joined: "Joined a waitlist",
    newsletter_subscribed: "Subscribed to the newsletter",
    template_downloaded: "Downloaded a template",
    scheduling_link_followed: "Followed the scheduling link",
    demo_opened: "Opened a demo",
  } as Record<string, string>,
  unknownCountry: "Unknown",
  notLoaded: "The numbers are still loading: export them in a moment.",
  noneCounted: "Nothing counted in this period.",
  noneCountedFiltered: "Nothing counted in this period with these filters.",
  showAll: (n: number) => `Show all ${n}`,
  showFewer: "Show fewer",
  notCounted: (n: { bot: number; gpc: number; dnt: number; prefetch_not_shown: number; dropped: number }) =>
    `Not counted: ${int(n.bot)} from bots, ${int(n.gpc + n.dnt)} asking not to be tracked (GPC or DNT), ${int(n.prefetch_not_shown)} prefetched but not shown, ${int(n.dropped)} dropped.`,
  status: (visitors: number, views: number) => `${int(visitors)} ${visitors === 1 ? "visitor" : "visitors"}, ${int(views)} ${views === 1 ? "view" : "views"}`,
} as const;

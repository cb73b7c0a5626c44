/**
 * The analytics screen's CSV export: what the screen shows, one number a
 * row (section, item, metric, value), so a spreadsheet can pivot it. Cells
 * are written as internal/csvexport writes the server's exports: one that a
 * spreadsheet would read as a formula (=, +, -, @, tab, CR first) gets a '
 * in front, and RFC 4180 quoting.
 */
import { conversionTotals, type Summary, type Totals } from "../data/analytics";
import type { AnalyticsParams } from "./analytics-params";

/** csvCell is s as an export writes it: formula-safe, quoted when it must be. */
export function csvCell(s: string): string {
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: readonly (string | number)[]): string {
  return cells.map((c) => csvCell(String(c))).join(",") + "\r\n";
}

type Row = [section: string, item: string, metric: string, value: string | number];

function totalsRows(section: string, t: Totals): Row[] {
  return [
    [section, "", "since", t.since],
    [section, "", "until", t.until],
    [section, "", "visitors", t.visitors],
    [section, "", "visits", t.visits],
    [section, "", "views", t.views],
    [section, "", "bounce_rate", t.bounce_rate],
    [section, "", "visit_duration_seconds", t.visit_duration],
  ];
}

/** analyticsCsv is the CSV of a summary as the screen shows it, with the filters it was asked with. */
export function analyticsCsv(s: Summary, params: AnalyticsParams): string {
  const rows: Row[] = [
    ["period", "", "interval", s.interval],
    ...Object.entries(params.filters).map(([k, v]): Row => ["filter", k, "equals", v ?? ""]),
    ...totalsRows("totals", s),
    ["totals", "", "views_per_visit", s.views_per_visit],
    ["totals", "", "conversions", conversionTotals(s).count],
    ["totals", "", "conversion_rate", conversionTotals(s).rate],
    ...totalsRows("previous", s.previous),
    ...s.series.flatMap((p, i): Row[] => {
      const before = s.previous.series[i];
      return [
        ["series", p.at, "visitors", p.visitors],
        ["series", p.at, "views", p.views],
        ...(before ? ([["series_previous", before.at, "visitors", before.visitors], ["series_previous", before.at, "views", before.views]] as Row[]) : []),
      ];
    }),
    ...(["pages", "entry_pages", "exit_pages"] as const).flatMap((list) =>
      s[list].flatMap((p): Row[] => [
        [list, p.path, list === "pages" ? "views" : "visits", p.views],
        [list, p.path, "visitors", p.visitors],
      ]),
    ),
    ...s.sources.map((r): Row => ["sources", r.source, "visitors", r.visitors]),
    ...s.campaigns.map((r): Row => ["campaigns", [r.utm_source, r.utm_medium, r.utm_campaign].join(" / "), "visitors", r.visitors]),
    ...(["browsers", "oses", "devices", "countries"] as const).flatMap((list) => s[list].map((r): Row => [list, r.value, "visitors", r.visitors])),
    ...s.conversions.flatMap((c): Row[] => [
      ["conversions", c.goal, "count", c.count],
      ["conversions", c.goal, "visitors", c.visitors],
      ["conversions", c.goal, "rate", c.rate],
    ]),
    ...Object.entries(s.not_counted).map(([k, v]): Row => ["not_counted", k, "requests", v]),
  ];
  return csvLine(["section", "item", "metric", "value"]) + rows.map(csvLine).join("");
}

import { describe, expect, it } from "vitest";
import {
  analyticsSearch,
  customProblem,
  DEFAULT_PERIOD,
  parseDay,
  periodRange,
  readAnalyticsParams,
  summaryArgs,
  withFilter,
  withoutFilter,
  type AnalyticsParams,
} from "./analytics-params";
import { analyticsCsv, csvCell } from "./analytics-csv";
import type { Summary } from "../data/analytics";

// 28 Nov 2026, 15:20 in the viewer's zone (the tests' zone is whatever the machine's is: the periods are calendar days in it).
const now = new Date(2026, 10, 28, 15, 20);
const local = (y: number, m: number, d: number) => new Date(y, m - 1, d);

describe("the analytics screen's URL", () => {
  it("reads the defaults from an empty query, and writes them as nothing", () => {
    const p = readAnalyticsParams("");
    expect(p).toEqual({ period: DEFAULT_PERIOD, filters: {} });
    expect(analyticsSearch(p)).toBe("");
  });

  it("keeps a period, the chart's step and the filters through a round trip, in a fixed order", () => {
    const p: AnalyticsParams = { period: "7d", interval: "hour", filters: { source: "Direct", path: "/about us?x=1&y" } };
    const search = analyticsSearch(p);
    expect(search).toBe("?period=7d&interval=hour&path=%2Fabout+us%3Fx%3D1%26y&source=Direct");
    expect(readAnalyticsParams(search)).toEqual(p);
  });

  it("keeps a custom period's days, and falls back to the default for one it cannot use", () => {
    expect(readAnalyticsParams("?period=custom&from=2026-11-01&to=2026-11-10")).toEqual({ period: "custom", from: "2026-11-01", to: "2026-11-10", filters: {} });
    for (const bad of ["?period=custom", "?period=custom&from=2026-11-10&to=2026-11-01", "?period=custom&from=2026-02-30&to=2026-03-01", "?period=custom&from=2025-01-01&to=2026-02-05", "?period=forever"]) {
      expect(readAnalyticsParams(bad).period, bad).toBe(DEFAULT_PERIOD);
    }
  });

  it("ignores unknown keys and empty filters", () => {
    expect(readAnalyticsParams("?utm_term=x&path=&interval=week").filters).toEqual({});
    expect(readAnalyticsParams("?interval=week").interval).toBeUndefined();
  });

  it("adds a clicked row's filters, and takes one or all away", () => {
    const p = withFilter({ period: "30d", filters: { path: "/" } }, { utm_source: "news", utm_campaign: "autumn" });
    expect(p.filters).toEqual({ path: "/", utm_source: "news", utm_campaign: "autumn" });
    expect(withoutFilter(p, "path").filters).toEqual({ utm_source: "news", utm_campaign: "autumn" });
    expect(withoutFilter(p).filters).toEqual({});
  });
});

describe("the periods", () => {
  it("are whole days of the viewer's zone, ending at tonight's midnight", () => {
    const r = (period: AnalyticsParams["period"]) => periodRange({ period, filters: {} }, now);
    expect(r("today")).toMatchObject({ since: local(2026, 11, 28), until: local(2026, 11, 29), days: 1, interval: "hour", hourly: true });
    expect(r("7d")).toMatchObject({ since: local(2026, 11, 22), until: local(2026, 11, 29), days: 7, interval: "day", hourly: true });
    expect(r("30d")).toMatchObject({ since: local(2026, 10, 30), days: 30, interval: "day" });
    expect(r("12mo")).toMatchObject({ since: local(2025, 11, 29), until: local(2026, 11, 29), days: 365, interval: "day", hourly: false });
  });

  it("a custom period runs from its first day to the end of its last", () => {
    const r = periodRange({ period: "custom", from: "2026-03-28", to: "2026-03-29", filters: {} }, now);
    expect(r).toMatchObject({ since: local(2026, 3, 28), until: local(2026, 3, 30), days: 2, interval: "hour" });
  });

  it("steps by the hour only up to 31 days (the server's limit), whatever the URL asks", () => {
    expect(periodRange({ period: "30d", interval: "hour", filters: {} }, now).interval).toBe("hour");
    expect(periodRange({ period: "12mo", interval: "hour", filters: {} }, now).interval).toBe("day");
    expect(periodRange({ period: "today", interval: "day", filters: {} }, now).interval).toBe("day");
  });

  it("asks the server for ISO times, with the filters only when there are some", () => {
    const args = summaryArgs({ period: "today", filters: {} }, now);
    expect(args).toEqual({ since: local(2026, 11, 28).toISOString(), until: local(2026, 11, 29).toISOString(), interval: "hour" });
    expect(summaryArgs({ period: "today", filters: { device: "phone" } }, now).filters).toEqual({ device: "phone" });
  });

  it("checks a custom period's days", () => {
    expect(customProblem("", "2026-01-01")).toBe("missing");
    expect(customProblem("2026-01-02", "2026-01-01")).toBe("order");
    expect(customProblem("2025-01-01", "2026-02-05")).toBe("long"); // 401 days
    expect(customProblem("2025-01-01", "2026-02-04")).toBeUndefined(); // 400 days, the most
    expect(customProblem("2026-01-01", "2026-01-01")).toBeUndefined();
    expect(parseDay("2026-13-01")).toBeUndefined();
  });
});

describe("the analytics CSV", () => {
  it("never lets a spreadsheet read a cell as a formula, and quotes as RFC 4180 does", () => {
    expect(csvCell("=HYPERLINK(\"x\")")).toBe(`"'=HYPERLINK(""x"")"`);
    for (const c of ["+1", "-1", "@SUM(A1)", "\tx", "\rx"]) expect(csvCell(c).replace(/^"/, "").startsWith("'"), c).toBe(true);
    expect(csvCell("/a,b")).toBe('"/a,b"');
    expect(csvCell("/about")).toBe("/about");
  });

  it("holds every number the screen shows, one a row", () => {
    const point = (at: string, visitors: number, views: number) => ({ at, visitors, views });
    const totals = { since: "2026-11-27T00:00:00Z", until: "2026-11-28T00:00:00Z", visitors: 3, visits: 4, views: 9, bounce_rate: 0.25, visit_duration: 61, series: [point("2026-11-27T00:00:00Z", 3, 9)] };
    const s: Summary = {
      ...totals,
      since: "2026-11-28T00:00:00Z",
      until: "2026-11-29T00:00:00Z",
      series: [point("2026-11-28T00:00:00Z", 5, 12)],
      enabled: true,
      interval: "day",
      views_per_visit: 2.4,
      visitors_now: 1,
      pages: [{ path: "/a,b", views: 7, visitors: 4 }],
      entry_pages: [{ path: "/", views: 5, visitors: 5 }],
      exit_pages: [],
      sources: [{ source: "Direct", visitors: 5 }],
      campaigns: [{ utm_source: "=news", utm_medium: "email", utm_campaign: "autumn", visitors: 2 }],
      browsers: [{ value: "Chrome", visitors: 5 }],
      oses: [],
      devices: [{ value: "desktop", visitors: 5 }],
      countries: [],
      conversions: [{ goal: "contact_message_sent", count: 1, visitors: 1, rate: 0.2 }],
      not_counted: { bot: 2, gpc: 0, dnt: 0, prefetch_not_shown: 1, dropped: 0 },
      visitors: 5,
      visits: 5,
      views: 12,
      previous: totals,
    };
    const csv = analyticsCsv(s, { period: "today", filters: { path: "-x" } });
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("section,item,metric,value");
    for (const line of [
      "filter,path,equals,'-x",
      "totals,,visitors,5",
      "totals,,conversions,1",
      "totals,,conversion_rate,0.2",
      "previous,,visitors,3",
      "series,2026-11-28T00:00:00Z,views,12",
      "series_previous,2026-11-27T00:00:00Z,views,9",
      'pages,"/a,b",views,7',
      "entry_pages,/,visits,5",
      "campaigns,'=news / email / autumn,visitors,2",
      "devices,desktop,visitors,5",
      "conversions,contact_message_sent,rate,0.2",
      "not_counted,bot,requests,2",
    ]) {
      expect(lines).toContain(line);
    }
  });
});

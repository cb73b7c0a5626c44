/**
 * The analytics screen with the real data layer: the typed client's
 * rpc("analytics_summary") answered at the HTTP boundary, the cache and a
 * live feed the test drives. The chart (uPlot on a canvas, which jsdom has
 * not) is a stand-in that shows what it was given.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { analyticsCopy } from "~/content/console-analytics";
import { listCopy } from "~/content/console";
import type { Filters, Summary, SummaryArgs } from "../data/analytics";
import { clientFor, fakeLive, json, renderConsole } from "../test-console";
import { AnalyticsScreen } from "./analytics";
import { LIST_ROWS } from "./analytics-lists";
import { dayString, parseDay, summaryArgs } from "./analytics-params";
import type { ChartProps } from "./analytics-chart";

vi.mock("./analytics-chart", () => ({
  default: (p: ChartProps) => (
    <div role="img" aria-label={p.label} data-testid="analytics-chart" data-metric={p.metric} data-points={p.series.length} data-previous={p.previous.length} />
  ),
}));

const point = (at: string, visitors: number, views: number) => ({ at, visitors, views });

/** summary is an answer of the rpc: the numbers of what filters keep. */
function summary(args: SummaryArgs, over: Partial<Summary> = {}): Summary {
  const onlyAbout = args.filters?.path === "/about";
  const pages = [
    { path: "/", views: 30, visitors: 20 },
    { path: "/about", views: 8, visitors: 6 },
    ...Array.from({ length: 12 }, (_, i) => ({ path: `/resources/r${i}`, views: 2, visitors: 1 })),
  ];
  return {
    enabled: true,
    since: args.since,
    until: args.until,
    interval: args.interval,
    visitors: onlyAbout ? 6 : 24,
    visits: onlyAbout ? 7 : 30,
    views: onlyAbout ? 8 : 62,
    views_per_visit: 2.07,
    bounce_rate: 0.4,
    visit_duration: 95,
    visitors_now: 2,
    pages: onlyAbout ? pages.slice(1, 2) : pages,
    entry_pages: [{ path: "/", views: 25, visitors: 19 }],
    exit_pages: [{ path: "/contact", views: 9, visitors: 9 }],
    sources: [
      { source: "Direct", visitors: 15 },
      { source: "news.example", visitors: 9 },
    ],
    campaigns: [{ utm_source: "newsletter", utm_medium: "email", utm_campaign: "autumn", visitors: 4 }],
    browsers: [{ value: "Chrome", visitors: 20 }],
    oses: [{ value: "Linux", visitors: 20 }],
    devices: [{ value: "desktop", visitors: 18 }],
    countries: [{ value: "DE", visitors: 7 }],
    conversions: [
      { goal: "contact_message_sent", count: 2, visitors: 2, rate: 2 / 24 },
      { goal: "waitlist_joined", count: 1, visitors: 1, rate: 1 / 24 },
    ],
    not_counted: { bot: 5, gpc: 1, dnt: 1, prefetch_not_shown: 3, dropped: 0 },
    series: [point("2026-11-27T00:00:00Z", 10, 20), point("2026-11-28T00:00:00Z", 14, 42)],
    previous: {
      since: "2026-11-25T00:00:00Z",
      until: "2026-11-27T00:00:00Z",
      visitors: 20,
      visits: 26,
      views: 62,
      bounce_rate: 0.5,
      visit_duration: 80,
      series: [point("2026-11-25T00:00:00Z", 9, 30), point("2026-11-26T00:00:00Z", 11, 32)],
    },
    ...over,
  };
}

/** rpc answers POST /rest/v1/rpc/analytics_summary with answer(args), and keeps what it was asked. */
function rpc(answer: (args: SummaryArgs) => Response = (args) => json(summary(args))) {
  const asked: { args: SummaryArgs; headers: Headers }[] = [];
  const handler = async (req: Request) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/rest/v1/rpc/analytics_summary") return json({ message: "not here" }, 404);
    const args = (await req.json()) as SummaryArgs;
    asked.push({ args, headers: req.headers });
    return answer(args);
  };
  return { handler, asked };
}

const today = () => parseDay(dayString(new Date()))!;

function show(path = "/admin/analytics", r = rpc(), live = fakeLive("live")) {
  const out = renderConsole(<AnalyticsScreen />, { client: clientFor(r.handler), path, live: live.feed });
  return { ...out, ...r, live };
}

afterEach(() => {
  vi.useRealTimers();
  history.pushState(null, "", "/");
});

describe("the analytics screen", () => {
  it("asks for the last 30 days by day and shows the totals, the change on the period before, visitors now and the lists", async () => {
    const { asked } = show();
    await screen.findByText("24", { selector: "[data-testid=stat-visitors] dd" });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.args).toEqual(summaryArgs({ period: "30d", filters: {} }, today()));
    expect(asked[0]!.args.interval).toBe("day");
    expect(asked[0]!.headers.get("apikey")).toBe("anon-key");

    expect(screen.getByRole("heading", { level: 1, name: analyticsCopy.title })).toBeTruthy();
    const stat = (key: string) => screen.getByTestId(`stat-${key}`).textContent;
    expect(stat("visitors")).toContain("+20%"); // 24 against 20
    expect(stat("visitors")).toContain("20% more than the period before");
    expect(stat("views")).toContain("±0%");
    expect(stat("bounce_rate")).toContain("40%");
    expect(stat("bounce_rate")).toContain("−10 pts");
    expect(stat("visit_duration")).toContain("1m 35s");
    expect(stat("views_per_visit")).toContain("2.07");
    expect(stat("conversions")).toContain("3");
    expect(stat("conversion_rate")).toContain("13%"); // 3 of 24 visitors: the goals' visitors added up
    expect(screen.getByTestId("visitors-now").textContent).toBe(analyticsCopy.visitorsNow(2));

    const pages = screen.getByTestId("list-pages");
    expect(within(pages).getAllByRole("row")).toHaveLength(1 + LIST_ROWS);
    fireEvent.click(screen.getByRole("button", { name: analyticsCopy.showAll(14) }));
    expect(within(screen.getByTestId("list-pages")).getAllByRole("row")).toHaveLength(1 + 14);
    expect(within(screen.getByTestId("list-countries")).getByText("Germany")).toBeTruthy();
    expect(within(screen.getByTestId("list-conversions")).getByText(analyticsCopy.goals.contact_message_sent!)).toBeTruthy();
    expect(screen.getByTestId("not-counted").textContent).toContain("5 from bots");
    await waitFor(() => expect(screen.getByTestId("analytics-status").textContent).toBe(analyticsCopy.status(24, 62)));

    // The chart gets both series, and says what it shows; its numbers are a table too.
    const chart = await screen.findByTestId("analytics-chart");
    expect(chart.dataset.points).toBe("2");
    expect(chart.dataset.previous).toBe("2");
    expect(chart.getAttribute("aria-label")).toContain("24 this period, 20 the period before");
    fireEvent.click(screen.getByText(analyticsCopy.chart.showTable));
    const table = await screen.findByTestId("series-table");
    expect(within(table).getAllByRole("row")).toHaveLength(3);
    expect(within(table).getAllByRole("row")[2]!.textContent).toContain("42");
  });

  it("a page clicked filters the whole screen, kept in the URL, and its chip takes the filter away", async () => {
    const { asked } = show();
    const pages = await screen.findByTestId("list-pages");
    fireEvent.click(within(pages).getByRole("link", { name: `${analyticsCopy.filterBy(analyticsCopy.filterNames.path)}: /about` }));

    await waitFor(() => expect(asked.at(-1)!.args.filters).toEqual({ path: "/about" } satisfies Filters));
    expect(location.search).toBe("?path=%2Fabout");
    await screen.findByText("6", { selector: "[data-testid=stat-visitors] dd" });
    const chip = screen.getByRole("button", { name: analyticsCopy.removeFilter(analyticsCopy.filterNames.path, "/about") });

    // A campaign sets its source, medium and name.
    fireEvent.click(within(screen.getByRole("region", { name: analyticsCopy.lists.sources.title })).getByRole("button", { name: analyticsCopy.lists.sources.tabs.campaigns }));
    fireEvent.click(screen.getByRole("link", { name: /autumn/ }));
    await waitFor(() => expect(asked.at(-1)!.args.filters).toEqual({ path: "/about", utm_source: "newsletter", utm_medium: "email", utm_campaign: "autumn" }));

    fireEvent.click(chip);
    await waitFor(() => expect(asked.at(-1)!.args.filters).toEqual({ utm_source: "newsletter", utm_medium: "email", utm_campaign: "autumn" }));
    fireEvent.click(screen.getByRole("button", { name: analyticsCopy.clearFilters }));
    await waitFor(() => expect(asked.at(-1)!.args.filters).toBeUndefined());
    expect(location.search).toBe("");
  });

  it("a reload of a shared link asks for its period, step and filters", async () => {
    const { asked } = show("/admin/analytics?period=7d&interval=hour&source=Direct");
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]!.args).toEqual(summaryArgs({ period: "7d", interval: "hour", filters: { source: "Direct" } }, today()));
    expect(await screen.findByRole("button", { name: analyticsCopy.removeFilter(analyticsCopy.filterNames.source, "Direct") })).toBeTruthy();
    expect(screen.getByRole("button", { name: analyticsCopy.intervals.hour }).getAttribute("aria-pressed")).toBe("true");
  });

  it("the period picker changes the period; a custom one is checked before it is asked for", async () => {
    const { asked } = show();
    await screen.findByTestId("stat-visitors");
    fireEvent.click(screen.getByRole("button", { name: analyticsCopy.periods.today }));
    await waitFor(() => expect(asked.at(-1)!.args.interval).toBe("hour"));
    expect(location.search).toBe("?period=today");

    fireEvent.click(screen.getByRole("button", { name: analyticsCopy.periods.custom }));
    const from = await screen.findByLabelText(analyticsCopy.custom.from);
    const to = screen.getByLabelText(analyticsCopy.custom.to);
    // Custom starts from the period shown: today.
    expect((from as HTMLInputElement).value).toBe(dayString(new Date()));
    fireEvent.change(from, { target: { value: "2026-11-10" } });
    fireEvent.change(to, { target: { value: "2026-11-01" } });
    fireEvent.click(screen.getByRole("button", { name: analyticsCopy.custom.apply }));
    expect((await screen.findByRole("alert")).textContent).toBe(analyticsCopy.custom.problems.order);

    fireEvent.change(to, { target: { value: "2026-11-12" } });
    fireEvent.click(screen.getByRole("button", { name: analyticsCopy.custom.apply }));
    await waitFor(() => expect(location.search).toBe("?period=custom&from=2026-11-10&to=2026-11-12"));
    await waitFor(() => expect(asked.at(-1)!.args.since).toBe(new Date(2026, 10, 10).toISOString()));
    expect(asked.at(-1)!.args.until).toBe(new Date(2026, 10, 13).toISOString());
  });

  it("the conversion rate counts each visitor once when the server says how many reached a goal", async () => {
    show("/admin/analytics", rpc((args) => json(summary(args, { converted_visitors: 2 }))));
    await waitFor(() => expect(screen.getByTestId("stat-conversion_rate").textContent).toContain("8.3%")); // 2 of 24
    expect(screen.getByTestId("stat-conversions").textContent).toContain("3");
  });

  it("says so when the server counts nothing (--analytics off)", async () => {
    show("/admin/analytics", rpc((args) => json(summary(args, { enabled: false, visitors: 0, visitors_now: 0 }))));
    const off = await screen.findByTestId("analytics-off");
    expect(off.textContent).toContain("Analytics are off on this server (studio serve --analytics off).");
  });

  it("with filters, says from which day they apply when older days are kept only as daily totals", async () => {
    show("/admin/analytics?period=12mo&source=Direct", rpc((args) => json(summary(args, args.filters ? { filters_from: "2026-10-29T00:00:00Z" } : {}))));
    const note = await screen.findByTestId("analytics-filters-from");
    expect(note.getAttribute("role")).toBe("note");
    expect(note.textContent).toContain(analyticsCopy.filtersFrom.title);
    expect(note.textContent).toContain(`${new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(new Date("2026-10-29T00:00:00Z"))} (UTC)`);
    fireEvent.click(screen.getByRole("button", { name: analyticsCopy.removeFilter(analyticsCopy.filterNames.source, "Direct") }));
    await waitFor(() => expect(screen.queryByTestId("analytics-filters-from")).toBeNull());
  });

  it("live changes of analytics_live read the numbers again, coalesced, and keep what is shown meanwhile", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    let now = 2;
    const r = rpc((args) => json(summary(args, { visitors_now: now })));
    const { asked, live } = show("/admin/analytics", r);
    await act(async () => {});
    await act(async () => {});
    expect(asked).toHaveLength(1);
    expect(screen.getByTestId("visitors-now").textContent).toBe(analyticsCopy.visitorsNow(2));

    now = 5;
    for (let i = 0; i < 10; i++) {
      act(() => live.change("analytics_live"));
      await act(async () => vi.advanceTimersByTime(100));
    }
    await act(async () => vi.advanceTimersByTime(2000));
    expect(asked.length - 1).toBeGreaterThanOrEqual(1);
    expect(asked.length - 1).toBeLessThanOrEqual(2);
    expect(screen.getByTestId("visitors-now").textContent).toBe(analyticsCopy.visitorsNow(5));
    // Other tables' changes leave it alone.
    act(() => live.change("contact_messages"));
    await act(async () => vi.advanceTimersByTime(2000));
    expect(asked.length - 1).toBeLessThanOrEqual(2);
  });

  it("a refusal shows the problem with Try again; an ended session goes to sign-in", async () => {
    let status = 500;
    const r = rpc(() => json({ code: "PGRST000", message: "the store is down", details: null, hint: null }, status));
    const { problems } = show("/admin/analytics", r);
    expect((await screen.findByRole("alert")).textContent).toContain("The store cannot be reached");
    status = 401;
    fireEvent.click(screen.getByRole("button", { name: listCopy.retry }));
    await waitFor(() => expect(problems.map((p) => p.kind)).toContain("session"));
  });
});

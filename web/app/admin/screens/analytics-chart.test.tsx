/**
 * The analytics chart: what it draws (the period's steps, stopped at now,
 * with the period before step for step) and that uPlot mounts, redraws and
 * goes with the screen. jsdom has no canvas, Path2D or matchMedia: a 2D
 * context that draws nothing stands in, and the like for the others.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import AnalyticsChart, { chartData, tickLabel, type ChartProps } from "./analytics-chart";

// uPlot asks matchMedia for the pixel ratio when it loads, and draws paths with Path2D, which jsdom has not: media that match nothing, paths that are nothing.
vi.hoisted(() => {
  const none = (media: string) => ({ matches: false, media, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} });
  globalThis.matchMedia ??= none as unknown as typeof matchMedia;
  globalThis.Path2D ??= function Path2D() {
    return new Proxy({}, { get: () => () => {} });
  } as unknown as typeof Path2D;
});

const point = (at: string, visitors: number, views: number) => ({ at, visitors, views });
const props: ChartProps = {
  series: [point("2026-11-28T10:00:00Z", 3, 5), point("2026-11-28T11:00:00Z", 4, 9), point("2026-11-28T12:00:00Z", 0, 0)],
  previous: [point("2026-11-27T10:00:00Z", 1, 2), point("2026-11-27T11:00:00Z", 2, 2)],
  metric: "views",
  interval: "hour",
  label: "Chart of views per hour",
  hover: () => "",
  now: Date.parse("2026-11-28T11:30:00Z"),
};

describe("the analytics chart's data", () => {
  it("has the period's steps in seconds, its values up to now, and the period before's beside them", () => {
    const [xs, ys, before] = chartData(props);
    expect(xs).toEqual([Date.parse("2026-11-28T10:00:00Z") / 1000, Date.parse("2026-11-28T11:00:00Z") / 1000, Date.parse("2026-11-28T12:00:00Z") / 1000]);
    expect(ys).toEqual([5, 9, null]); // 12:00 has not come yet
    expect(before).toEqual([2, 2, null]); // the period before had two steps only
  });

  it("names a step by its hour within a day, and by its day (with the hour when not midnight) over longer periods", () => {
    const noon = new Date(2026, 10, 28, 12);
    expect(tickLabel(noon, "hour", 1)).toMatch(/12/);
    expect(tickLabel(new Date(2026, 10, 28), "day", 7)).toMatch(/28/);
    expect(tickLabel(new Date(2026, 10, 28), "day", 7)).not.toMatch(/:/);
    expect(tickLabel(noon, "hour", 3)).toMatch(/28.*12/);
  });
});

describe("the analytics chart", () => {
  beforeEach(() => {
    // A 2D context whose every method draws nothing and whose measureText has a width.
    const ctx = new Proxy({} as Record<string | symbol, unknown>, {
      get: (t, k) => (k in t ? t[k] : k === "measureText" ? () => ({ width: 10 }) : () => {}),
      set: (t, k, v) => ((t[k] = v), true),
    });
    vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx as unknown as CanvasRenderingContext2D);
    vi.stubGlobal("ResizeObserver", class { observe() {} disconnect() {} });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("is an image named by what it shows, draws on a canvas, redraws new numbers and goes with the screen", () => {
    const { rerender, unmount } = render(<AnalyticsChart {...props} />);
    const chart = screen.getByRole("img", { name: props.label });
    expect(chart.querySelector("canvas")).not.toBeNull();
    rerender(<AnalyticsChart {...props} series={[...props.series, point("2026-11-28T13:00:00Z", 1, 1)]} />);
    expect(chart.querySelectorAll("canvas")).toHaveLength(1);
    unmount();
    expect(document.querySelector(".uplot")).toBeNull();
  });
});

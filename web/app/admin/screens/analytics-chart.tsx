/**
 * The analytics screen's chart: one metric over the period, with the period
 * before drawn beside it (dashed), step by step. Drawn by uPlot on a canvas,
 * and loaded only by this screen (analytics.tsx imports it with React.lazy),
 * so /admin's first load does not carry it. The canvas is an image to
 * assistive technology, named by what it shows; the numbers are in the
 * screen's table.
 */
import { useEffect, useRef, useState } from "react";
import uPlot from "uplot";
// Its stylesheet by URL, linked by the chart itself: imported as CSS, the build would add it to /admin's first load.
import uPlotCss from "uplot/dist/uPlot.min.css?url";
import type { Interval, Point } from "../data/analytics";

export type ChartProps = {
  series: readonly Point[];
  previous: readonly Point[];
  metric: "visitors" | "views";
  interval: Interval;
  /** What the chart shows, in words (its accessible name). */
  label: string;
  /** The readout of a hovered step: its time, value and the period before's. */
  hover: (at: Date, value: number | undefined, before: number | undefined) => string;
  /** Steps after this time have not happened yet: the line stops there. */
  now: number;
};

/** The chart's height in px: h-60. */
const HEIGHT = 240;

/** The time axis's ticks, in seconds: whole steps of the series (never half a day on a chart by day). */
const HOUR = 3600;
const DAY = 24 * HOUR;
const DAY_STEPS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY, 56 * DAY, 91 * DAY];
const HOUR_STEPS = [HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, ...DAY_STEPS];

/** The theme's colours (Tailwind's brand and slate), for the canvas. */
function palette(dark: boolean) {
  return dark
    ? { line: "#818cf8", fill: "rgba(129, 140, 248, 0.15)", before: "#94a3b8", grid: "#1e293b", text: "#94a3b8" }
    : { line: "#4f46e5", fill: "rgba(79, 70, 229, 0.1)", before: "#64748b", grid: "#e2e8f0", text: "#475569" };
}

/** useDark follows the console's theme (the dark class on <html>). */
function useDark(): boolean {
  const read = () => document.documentElement.classList.contains("dark");
  const [dark, setDark] = useState(read);
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(read()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
    return () => observer.disconnect();
  }, []);
  return dark;
}

/** tickLabel names a step on the time axis: the hour within a day, else the day (and the hour when it is not midnight). */
export function tickLabel(d: Date, interval: Interval, spanDays: number): string {
  const hour = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }).format(d);
  if (interval === "hour" && spanDays <= 1) return hour;
  const day = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short" }).format(d);
  return interval === "hour" && d.getHours() !== 0 ? `${day} ${hour}` : day;
}

export function chartData({ series, previous, metric, now }: ChartProps): uPlot.AlignedData {
  const xs = series.map((p) => Date.parse(p.at) / 1000);
  // A step still to come has no value yet; the period before's has.
  const ys = series.map((p) => (Date.parse(p.at) <= now ? p[metric] : null));
  const before = series.map((_, i) => previous[i]?.[metric] ?? null);
  return [xs, ys, before];
}

export default function AnalyticsChart(props: ChartProps) {
  const { interval, metric, label, hover } = props;
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const dark = useDark();
  const [hovered, setHovered] = useState<number>();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const c = palette(dark);
    // How many days the data spans now (a new period may come with the same step).
    const spanDays = (u: uPlot) => {
      const xs = u.data[0];
      return xs.length > 1 ? (xs[xs.length - 1]! - xs[0]!) / DAY : 0;
    };
    const axis = { stroke: c.text, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 }, font: "12px system-ui, sans-serif" };
    const u = new uPlot(
      {
        width: el.clientWidth || 600,
        height: HEIGHT,
        legend: { show: false },
        cursor: { y: false, drag: { x: false, y: false }, points: { size: 7 } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
        axes: [
          { ...axis, space: (self) => (interval === "hour" && spanDays(self) > 1 ? 130 : 70), incrs: interval === "hour" ? HOUR_STEPS : DAY_STEPS, values: (self, splits) => splits.map((v) => tickLabel(new Date(v * 1000), interval, spanDays(self))) },
          { ...axis, size: 48, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000], values: (_u, splits) => splits.map((v) => v.toLocaleString()) },
        ],
        series: [
          {},
          { label: metric, stroke: c.line, fill: c.fill, width: 2, points: { show: false } },
          { label: "before", stroke: c.before, dash: [6, 4], width: 1.5, points: { show: false } },
        ],
        hooks: { setCursor: [(self) => setHovered(self.cursor.idx ?? undefined)] },
      },
      chartData(latest.current),
      el,
    );
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [dark, metric, interval]);

  // New numbers (a live change, another filter) redraw the same chart.
  useEffect(() => {
    plot.current?.setData(chartData(props));
  }, [props.series, props.previous, props.now]); // eslint-disable-line react-hooks/exhaustive-deps

  const at = hovered === undefined ? undefined : props.series[hovered];
  const before = hovered === undefined ? undefined : props.previous[hovered];
  return (
    <div>
      {/* React holds the chart back until its stylesheet is in (precedence), and links it once however often it is drawn. */}
      {uPlotCss && <link rel="stylesheet" href={uPlotCss} precedence="default" />}
      {/* Seen while the pointer is on the chart; the table below has the same numbers for everyone. */}
      <p aria-hidden="true" className="mb-1 h-5 truncate text-sm text-slate-700 dark:text-slate-300" data-testid="chart-readout">
        {at && hover(new Date(at.at), Date.parse(at.at) <= props.now ? at[metric] : undefined, before?.[metric])}
      </p>
      <div ref={box} role="img" aria-label={label} className="h-60 w-full overflow-hidden" data-testid="analytics-chart" />
    </div>
  );
}

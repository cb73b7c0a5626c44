/** The analytics screen's lists (analytics.tsx): pages, sources and campaigns, devices, countries, each row a link that filters the screen, and the goals. */
import { useState } from "react";
import { analyticsCopy as copy } from "~/content/console-analytics";
import { cn } from "~/lib/cn";
import type { Filters, FilterKey, Summary } from "../data/analytics";
import { ConsoleLink } from "../router";
import { withFilter, type AnalyticsParams } from "./analytics-params";
import { card, muted } from "./analytics-ui";
import { FilterButtons } from "./list-controls";

/** How many rows a list shows before "Show all". */
export const LIST_ROWS = 10;

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

export function pageTab(list: "pages" | "entry_pages" | "exit_pages", s: Summary, key: "path" | "entry_page" | "exit_page", href: Href, params: AnalyticsParams): Tab {
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
function valueLabel(key: FilterKey, value: string): string {
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

export function valueTab(list: "browsers" | "oses" | "devices" | "countries", s: Summary, key: FilterKey, column: string, href: Href, params: AnalyticsParams): Tab {
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

/** sourceTabs are the sources list's two tabs: the referring sources, and the campaigns (UTM). */
export function sourceTabs(s: Summary, href: Href, params: AnalyticsParams): Tab[] {
  const toHref = (f: Filters) => href(withFilter(params, f));
  return [
    {
      id: "sources",
      label: copy.lists.sources.tabs.sources,
      column: copy.columns.source,
      rows: s.sources.map((r) => ({ key: r.source, label: r.source, visitors: r.visitors, filter: { source: r.source } })),
      filterName: copy.filterNames.source,
      href: toHref,
    },
    {
      id: "campaigns",
      label: copy.lists.sources.tabs.campaigns,
      column: copy.columns.campaign,
      rows: s.campaigns.map((r) => ({
        key: `${r.utm_source}/${r.utm_medium}/${r.utm_campaign}`,
        label: campaignLabel(r),
        visitors: r.visitors,
        filter: campaignFilter(r),
      })),
      filterName: copy.filterNames.utm_campaign,
      href: toHref,
    },
  ];
}

/** TopList is a card of one or more lists (chosen with buttons), each row a link that filters the screen by it. */
export function TopList({ title, tabs, filtered }: { title: string; tabs: Tab[]; filtered: boolean }) {
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

export function Goals({ s }: { s: Summary }) {
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

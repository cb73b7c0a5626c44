/**
 * ListScreen is the frame of the inbox, waitlist and subscriber screens:
 * the title with the live mark and the export, the search and filters, the
 * rows (or the loading, empty or problem state) and the pager.
 */
import { useEffect, useState, type ReactNode } from "react";
import { Radio } from "lucide-react";
import { listCopy } from "~/content/console";
import { cn } from "~/lib/cn";
import { csvFileName } from "./csv";
import { ExportButton, FilterButtons, Pager, SearchBox } from "./list-controls";
import { useLiveStatus } from "../data/use-read";
import { clampPage, shownRange } from "../data/paging";
import { EmptyState, LoadingState, ProblemState } from "../ui/states";
import type { ListParamsState } from "./use-list-params";
import type { Answer } from "../data/answer";
import type { Read } from "../data/use-read";
import { useDocumentTitle } from "../ui/document-title";

export function LiveMark() {
  const status = useLiveStatus();
  const live = status === "live";
  return (
    <span
      data-testid="live-status"
      data-status={status}
      title={status === "off" ? listCopy.liveOffHint : status === "paused" ? listCopy.livePausedHint : undefined}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium",
        live ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200" : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
      )}
    >
      <Radio aria-hidden="true" className="size-3.5" />
      {live ? listCopy.live : status === "connecting" ? listCopy.connecting : status === "paused" ? listCopy.livePaused : listCopy.liveOff}
    </span>
  );
}

/**
 * LivePaused is a status line (announced by screen readers) that says so
 * while the server's live updates are paused; empty otherwise.
 */
export function LivePaused() {
  const paused = useLiveStatus() === "paused";
  return (
    <p
      role="status"
      className={paused ? "mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100" : "sr-only"}
    >
      {paused && (
        <>
          <strong className="font-semibold">{listCopy.livePaused}</strong>. {listCopy.livePausedHint}
        </>
      )}
    </p>
  );
}

type Props<T, F extends string> = {
  title: string;
  /** Shown above the list: counts per product on the waitlist. */
  summary?: ReactNode;
  /** The list's search, filter and page in the URL, and their setters. */
  list: ListParamsState<F>;
  search: { label: string; placeholder: string };
  filter?: { label: string; options: readonly { value: F; label: string }[] };
  /** The CSV export of what the list shows: its file's name starts with name. */
  csv: { name: string; request: (signal: AbortSignal) => PromiseLike<Answer<string>> };
  request: Read<T[]>;
  empty: { title: string; text: string };
  children: (rows: T[]) => ReactNode;
};

export function ListScreen<T, F extends string>({ title, summary, list, search, filter, csv, request, empty, children }: Props<T, F>) {
  const { params, setQuery, setFilter, setPage: onPage } = list;
  useDocumentTitle(title);
  const { page } = params;
  const shown = request.phase === "done" ? request : request.phase === "loading" ? request.last : undefined;
  const rows = shown?.data ?? [];
  const total = shown?.count ?? rows.length;
  // What the list's live region says once the rows of a search, filter or page are in: the count, or why there is none.
  const [status, setStatus] = useState("");
  const { from, to } = shownRange(page, rows.length, total);
  const emptyStatus = listCopy.emptyStatus(empty);
  useEffect(() => {
    if (request.phase !== "done") return;
    setStatus(rows.length === 0 ? emptyStatus : listCopy.status(from, to, total, params.q));
  }, [request.phase, rows.length, from, to, total, params.q, emptyStatus]);
  // Rows went away (handled, moved to spam) or the URL named a page past the end: show the last page.
  useEffect(() => {
    if (request.phase === "done" && rows.length === 0 && page > 1) onPage(clampPage(page, total), true);
  }, [request.phase, rows.length, page, total, onPage]);
  return (
    <section aria-labelledby="screen-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <h1 id="screen-title" tabIndex={-1} className="text-2xl font-bold tracking-tight focus:outline-none">
            {title}
          </h1>
          <LiveMark />
        </div>
        <ExportButton request={csv.request} fileName={() => csvFileName(csv.name, params, new Date())} />
      </div>
      {summary}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchBox label={search.label} placeholder={search.placeholder} value={params.q} onSearch={setQuery} />
        {filter && <FilterButtons label={filter.label} options={filter.options} value={params.filter} onChange={setFilter} />}
      </div>
      {/* Always in the page (outside the busy rows), so a screen reader hears each change of it: "3 results for “ada”", "No messages match “x”. …" */}
      <p role="status" aria-live="polite" className="sr-only" data-testid="list-status">
        {status}
      </p>
      <div aria-busy={request.phase === "loading"}>
        {request.phase === "failed" ? (
          <ProblemState problem={request.problem} onRetry={request.reload} />
        ) : !shown ? (
          <LoadingState />
        ) : rows.length === 0 ? (
          <EmptyState {...empty} />
        ) : (
          <>
            {/* While the rows refresh (a page, a search, a live change) a bar shows it; the rows keep their full contrast. */}
            <div aria-hidden="true" className={cn("-mt-2 h-0.5 rounded-full", request.phase === "loading" ? "bg-brand-500 motion-safe:animate-pulse" : "bg-transparent")} />
            {children(rows)}
            <Pager page={page} rows={rows.length} total={total} onPage={onPage} />
          </>
        )}
      </div>
    </section>
  );
}

/** The controls of a list screen: search box, filter buttons, pager and CSV export. */
import { useEffect, useRef, useState } from "react";
import { ChevronLeft, ChevronRight, FileDown, Search, X } from "lucide-react";
import { listCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { cn } from "~/lib/cn";
import { pageCount, shownRange } from "../data/paging";
import { useFailedAction } from "../ui/states";
import { run, type Answer } from "../data/answer";
import { saveText } from "./csv";

/** The console's search waits this long after the last keystroke, as the resource list does (docs/requirements.md#resource-list). */
export const SEARCH_DEBOUNCE_MS = 300;

const field =
  "h-10 w-full rounded-lg border border-slate-300 bg-white pl-9 pr-9 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400";

/** SearchBox reports its text 300 ms after the last key (at once on Enter). */
export function SearchBox({ label, placeholder, value, onSearch }: { label: string; placeholder: string; value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => setText(value), [value]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const change = (q: string) => {
    setText(q);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => onSearch(q), SEARCH_DEBOUNCE_MS);
  };
  return (
    <form
      role="search"
      className="relative w-full sm:max-w-sm"
      onSubmit={(e) => {
        e.preventDefault();
        window.clearTimeout(timer.current);
        onSearch(text);
      }}
    >
      <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500 dark:text-slate-400" />
      <input type="search" aria-label={label} placeholder={placeholder} value={text} onChange={(e) => change(e.target.value)} className={field} />
      {text && (
        <button
          type="button"
          aria-label={listCopy.clearSearch}
          onClick={() => {
            window.clearTimeout(timer.current);
            setText("");
            onSearch("");
          }}
          className="absolute right-1.5 top-1/2 -translate-y-1/2 rounded-md p-1.5 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-slate-400 dark:hover:bg-slate-800"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      )}
    </form>
  );
}

/** FilterButtons shows one button per filter; the chosen one is pressed. */
export function FilterButtons<F extends string>({ label, options, value, onChange }: { label: string; options: readonly { value: F; label: string }[]; value: F; onChange: (f: F) => void }) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={o.value === value}
          onClick={() => onChange(o.value)}
          className={cn(
            "rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300",
            o.value === value ? "bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white" : "text-slate-700 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white",
          )}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** Pager shows which rows are on screen and moves a page back or forward. */
export function Pager({ page, rows, total, onPage }: { page: number; rows: number; total: number; onPage: (p: number) => void }) {
  const pages = pageCount(total);
  const { from, to } = shownRange(page, rows, total);
  return (
    <nav aria-label={listCopy.pageOf(page, pages)} className="flex flex-wrap items-center justify-between gap-3 pt-4 text-sm text-slate-700 dark:text-slate-300">
      {/* The list's status region (list-screen.tsx) announces the count: this line is only seen. */}
      <p data-testid="list-range">
        {listCopy.range(from, to, total)}
      </p>
      <div className="flex items-center gap-2">
        <span>{listCopy.pageOf(page, pages)}</span>
        <button type="button" className={buttonClass("secondary", "sm", "px-2")} disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label={listCopy.previous}>
          <ChevronLeft aria-hidden="true" className="size-4" />
        </button>
        <button type="button" className={buttonClass("secondary", "sm", "px-2")} disabled={page >= pages} onClick={() => onPage(page + 1)} aria-label={listCopy.next}>
          <ChevronRight aria-hidden="true" className="size-4" />
        </button>
      </div>
    </nav>
  );
}

/** ExportButton fetches the list's CSV (every row of the current filter) and saves it under fileName; leaving the screen aborts it. */
export function ExportButton({ request, fileName }: { request: (signal: AbortSignal) => PromiseLike<Answer<string>>; fileName: () => string }) {
  const failed = useFailedAction();
  const [busy, setBusy] = useState(false);
  const screen = useRef<AbortController>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    screen.current = controller;
    return () => controller.abort();
  }, []);
  const exportCsv = async () => {
    const signal = screen.current!.signal;
    setBusy(true);
    const r = await run(request(signal));
    if (signal.aborted) return;
    setBusy(false);
    if (!r.ok) {
      failed(r.problem);
      return;
    }
    const name = fileName();
    saveText(r.data, name);
    toast({ title: listCopy.exported(name) });
  };
  return (
    <button type="button" onClick={exportCsv} disabled={busy} className={buttonClass("secondary", "sm")}>
      <FileDown aria-hidden="true" className="size-4" />
      {busy ? listCopy.exporting : listCopy.export}
    </button>
  );
}

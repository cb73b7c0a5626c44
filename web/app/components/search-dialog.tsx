/**
 * The site-wide search dialog. This module, and the index it imports, is
 * loaded with a dynamic import() the first time the visitor opens the search
 * (see site-search.tsx), so it is not part of any page's first load.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { takeEarlySearch } from "~/lib/early-search";
import { BookOpen, FileText, Layers, Rocket, Search, X, type LucideIcon } from "lucide-react";
import { searchDialog } from "~/content/search";
import { searchIndex, searchSite, type SearchEntry, type SearchKind } from "~/lib/search-index";
import { cn } from "~/lib/cn";

const kindIcons: Record<SearchKind, LucideIcon> = {
  page: FileText,
  product: Layers,
  venture: Rocket,
  resource: BookOpen,
};

/**
 * SearchDialog is a modal <dialog> (the rest of the page is inert while it is
 * open) with a combobox: type to search, ↑/↓ to move, Enter to open, Escape
 * or the close button to close. Tab stays inside the dialog. onClose runs
 * when it closes (it may run more than once); the opener unmounts the dialog
 * and puts the focus back.
 */
export default function SearchDialog({ onClose }: { onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // What was typed between the opening and this dialog's arrival (lib/early-search.ts).
  const [early] = useState(takeEarlySearch);
  const [query, setQuery] = useState(early.keys);
  const [active, setActive] = useState(0);
  const ids = { title: useId(), listbox: useId(), option: useId() };

  // Best match first: the first is highlighted, and Enter opens it.
  const flat = useMemo(() => searchSite(searchIndex, query), [query]);
  const activeEntry: SearchEntry | undefined = flat[active];
  const optionId = (i: number) => `${ids.option}-${i}`;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    inputRef.current?.focus();
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  useEffect(() => setActive(0), [query]);

  useEffect(() => {
    if (activeEntry) document.getElementById(`${ids.option}-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [active, activeEntry, ids.option]);

  // onClose runs at once, not on the dialog's (asynchronous) close event, so
  // a shortcut pressed right after closing opens the search again.
  const close = () => {
    dialogRef.current?.close();
    onClose();
  };

  const open = (entry: SearchEntry) => {
    close();
    window.location.assign(entry.href);
  };

  // Enter pressed before the dialog arrived opens the first result.
  const pendingEnter = useRef(early.enter);
  useEffect(() => {
    if (!pendingEnter.current || !flat[0]) return;
    pendingEnter.current = false;
    open(flat[0]);
  });

  const onInputKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (flat.length === 0) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i + step + flat.length) % flat.length);
    } else if (event.key === "Enter" && activeEntry) {
      event.preventDefault();
      open(activeEntry);
    }
  };

  // Keep Tab and Shift+Tab inside the dialog.
  const onDialogKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Tab") return;
    const focusable = [...(dialogRef.current?.querySelectorAll<HTMLElement>("input, button, [tabindex=\"0\"]") ?? [])];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const trimmed = query.trim();

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={ids.title}
      onCancel={onClose}
      onClose={onClose}
      onKeyDown={onDialogKeyDown}
      // A click on the dialog element itself is a click on the backdrop: the panel fills the box.
      onClick={(e) => e.target === e.currentTarget && close()}
      className="m-0 mx-auto mt-[8vh] w-[calc(100%-2rem)] max-w-xl overflow-hidden rounded-2xl bg-transparent p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/60 backdrop:backdrop-blur-sm sm:mt-[12vh] dark:text-white"
    >
      <div className="flex max-h-[80vh] flex-col bg-white ring-1 ring-slate-900/10 dark:bg-slate-900 dark:ring-white/10">
        <h2 id={ids.title} className="sr-only">
          {searchDialog.title}
        </h2>
        <div className="flex items-center gap-3 border-b border-slate-200 px-4 dark:border-slate-700">
          <Search aria-hidden="true" className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
          <input
            ref={inputRef}
            type="text"
            role="combobox"
            aria-label={searchDialog.inputLabel}
            aria-expanded={flat.length > 0}
            aria-controls={ids.listbox}
            aria-autocomplete="list"
            aria-activedescendant={activeEntry ? optionId(active) : undefined}
            autoComplete="off"
            spellCheck={false}
            enterKeyHint="go"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={onInputKeyDown}
            placeholder={searchDialog.placeholder}
            className="my-2 h-10 min-w-0 flex-1 rounded-md bg-transparent px-2 text-base text-slate-900 placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-white dark:placeholder:text-slate-400 dark:focus-visible:outline-brand-300"
          />
          <button
            type="button"
            onClick={close}
            aria-label={searchDialog.close}
            className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 dark:text-slate-300 dark:hover:bg-slate-800"
          >
            <X aria-hidden="true" className="size-5" />
          </button>
        </div>

        {/* Focusable so keyboard users can scroll a long list (the options themselves are reached with the arrow keys from the input). */}
        <div tabIndex={0} aria-label={searchDialog.resultsLabel} role="region" className="min-h-0 flex-1 overflow-y-auto overscroll-contain focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300">
          <div id={ids.listbox} role="listbox" aria-label={searchDialog.resultsLabel} className={cn(flat.length > 0 && "p-2")}>
            {flat.map((entry, i) => {
              const selected = i === active;
              const Icon = kindIcons[entry.kind];
              return (
                <div
                  key={`${entry.kind}:${entry.href}:${entry.title}`}
                  id={optionId(i)}
                  role="option"
                  aria-selected={selected}
                  onMouseMove={() => !selected && setActive(i)}
                  onClick={() => open(entry)}
                  className={cn(
                    "flex cursor-pointer items-start gap-3 rounded-lg px-3 py-2.5",
                    selected ? "bg-brand-600 text-white" : "text-slate-900 dark:text-white",
                  )}
                >
                  <Icon aria-hidden="true" className={cn("mt-0.5 size-4 shrink-0", selected ? "text-white" : "text-slate-400")} />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium">{entry.title}</span>
                    <span className={cn("block truncate text-xs", selected ? "text-brand-100" : "text-slate-600 dark:text-slate-400")}>
                      {entry.description}
                    </span>
                  </span>
                  <span className={cn("mt-0.5 shrink-0 text-xs font-medium", selected ? "text-brand-100" : "text-slate-500 dark:text-slate-400")}>
                    {searchDialog.kinds[entry.kind]}
                  </span>
                </div>
              );
            })}
          </div>
          {flat.length === 0 && (
            <p className="px-6 py-10 text-center text-sm text-slate-600 dark:text-slate-400">
              {trimmed === "" ? searchDialog.hint : searchDialog.noResults(trimmed)}
            </p>
          )}
        </div>

        <p role="status" className="sr-only">
          {trimmed === "" ? "" : flat.length === 0 ? searchDialog.noResults(trimmed) : searchDialog.count(flat.length)}
        </p>

        <div aria-hidden="true" className="hidden items-center gap-4 border-t border-slate-200 px-4 py-2.5 text-xs text-slate-500 sm:flex dark:border-slate-700 dark:text-slate-400">
          <span>
            <kbd className="rounded border border-slate-300 px-1 font-sans dark:border-slate-600">↑</kbd>{" "}
            <kbd className="rounded border border-slate-300 px-1 font-sans dark:border-slate-600">↓</kbd> {searchDialog.keys.move}
          </span>
          <span>
            <kbd className="rounded border border-slate-300 px-1 font-sans dark:border-slate-600">Enter</kbd> {searchDialog.keys.open}
          </span>
          <span>
            <kbd className="rounded border border-slate-300 px-1 font-sans dark:border-slate-600">Esc</kbd> {searchDialog.keys.close}
          </span>
        </div>
      </div>
    </dialog>
  );
}

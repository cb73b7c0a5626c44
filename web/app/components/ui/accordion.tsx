/**
 * Accordion: a list of headings that each show or hide a panel. At most one
 * panel is open; activating the open item's button closes it again. Each
 * header is a button (aria-expanded, aria-controls) inside a heading, and each
 * panel is a region labelled by its button (WAI-ARIA Authoring Practices,
 * "Accordion"). Buttons work with Enter and Space; Up/Down move between
 * headers, Home/End go to the first/last.
 */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { ChevronDown } from "lucide-react";
import { cn } from "~/lib/cn";

export type AccordionItem = { readonly id: string; readonly title: string; readonly content: ReactNode };

export function Accordion({
  items,
  headingLevel = 3,
  className,
}: {
  items: readonly AccordionItem[];
  headingLevel?: 2 | 3 | 4;
  className?: string;
}) {
  const [openId, setOpenId] = useState<string | null>(null);
  const baseId = useId();
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const Heading = `h${headingLevel}` as const;

  const moveFocus = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = items.length - 1;
    const target =
      e.key === "ArrowDown" ? (index === last ? 0 : index + 1)
      : e.key === "ArrowUp" ? (index === 0 ? last : index - 1)
      : e.key === "Home" ? 0
      : e.key === "End" ? last
      : undefined;
    if (target === undefined) return;
    e.preventDefault();
    buttons.current[target]?.focus();
  };

  return (
    <div
      className={cn(
        "divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900",
        className,
      )}
    >
      {items.map((item, index) => {
        const open = openId === item.id;
        const buttonId = `${baseId}-${item.id}-button`;
        const panelId = `${baseId}-${item.id}-panel`;
        return (
          <div key={item.id}>
            <Heading className="text-base">
              <button
                ref={(el) => {
                  buttons.current[index] = el;
                }}
                id={buttonId}
                type="button"
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => setOpenId(open ? null : item.id)}
                onKeyDown={(e) => moveFocus(e, index)}
                className="flex w-full items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left font-semibold text-slate-900 hover:text-brand-700 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 sm:px-6 dark:text-white dark:hover:text-brand-200 dark:focus-visible:outline-brand-300"
              >
                <span>{item.title}</span>
                <ChevronDown
                  aria-hidden="true"
                  className={cn("size-5 shrink-0 text-slate-500 transition-transform dark:text-slate-400", open && "rotate-180")}
                />
              </button>
            </Heading>
            <div
              id={panelId}
              role="region"
              aria-labelledby={buttonId}
              hidden={!open}
              className="px-5 pb-5 text-slate-600 sm:px-6 dark:text-slate-300"
            >
              {item.content}
            </div>
          </div>
        );
      })}
    </div>
  );
}

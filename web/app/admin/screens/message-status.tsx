import { inboxCopy } from "~/content/console";
import { cn } from "~/lib/cn";
import { messageStatus, type ContactMessage } from "../data/tables";

/*
 * The console draws its own status mark rather than the site's Badge: a
 * module shared with a public island would be split into a chunk of its
 * own, and every public page's first-load JavaScript would change.
 */
const dots = { open: "bg-brand-600 dark:bg-brand-400", handled: "bg-emerald-600 dark:bg-emerald-400", spam: "bg-amber-500 dark:bg-amber-400" } as const;

/** MessageStatus shows whether a message is open, handled or spam: a coloured dot and the word. */
export function MessageStatus({ m }: { m: Pick<ContactMessage, "spam" | "handled_at"> }) {
  const status = messageStatus(m);
  return (
    <span data-status={status} className="inline-flex items-center gap-1.5 whitespace-nowrap text-xs font-semibold text-slate-700 dark:text-slate-300">
      <span aria-hidden="true" className={cn("size-2 rounded-full", dots[status])} />
      {inboxCopy.status[status]}
    </span>
  );
}

/** The inbox: contact messages newest first, searchable, by filter, 25 a page, live. */
import { inboxCopy, type InboxFilter } from "~/content/console";
import { cn } from "~/lib/cn";
import { useConsole } from "../data/console-context";
import { ListScreen } from "./list-screen";
import { inboxCsv, inboxPage } from "../data/queries";
import { INBOX_FILTERS, messagePath } from "../route";
import { ConsoleLink, useLocation } from "../router";
import { messageStatus, type ContactMessage } from "../data/tables";
import { formatDateTime, formatListTime } from "../time";
import { MessageStatus } from "./message-status";
import { useListParams } from "./use-list-params";
import { useRead } from "../data/use-read";

export function InboxScreen() {
  const { client } = useConsole();
  const list = useListParams<InboxFilter>(INBOX_FILTERS);
  const { params } = list;
  // A change to the messages (here, elsewhere, or a new one) reloads it through the cache.
  const request = useRead({ table: "contact_messages", read: "page", params }, (signal) => inboxPage(client, params).abortSignal(signal));
  const empty = params.q ? inboxCopy.empty.search(params.q) : inboxCopy.empty[params.filter];
  const { search } = useLocation();
  return (
    <ListScreen
      title={inboxCopy.title}
      request={request}
      list={list}
      empty={empty}
      search={{ label: inboxCopy.searchLabel, placeholder: inboxCopy.searchPlaceholder }}
      filter={{ label: inboxCopy.filterLabel, options: INBOX_FILTERS.map((f) => ({ value: f, label: inboxCopy.filters[f] })) }}
      csv={{ name: "contact-messages", request: (signal) => inboxCsv(client, params, signal) }}
    >
      {(rows) => (
        <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900/40" data-testid="message-list">
          {rows.map((m) => (
            <MessageRow key={m.id} m={m} back={search} />
          ))}
        </ul>
      )}
    </ListScreen>
  );
}

function MessageRow({ m, back }: { m: ContactMessage; back: string }) {
  const open = messageStatus(m) === "open";
  return (
    <li>
      <ConsoleLink
        href={messagePath(m.id) + back}
        className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 dark:hover:bg-slate-900"
      >
        <span className="flex min-w-0 items-center gap-2">
          {open && <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-brand-600 dark:bg-brand-400" />}
          <span className={cn("truncate", open ? "font-semibold" : "font-medium")}>{m.name}</span>
          <span className="hidden truncate text-sm text-slate-600 sm:inline dark:text-slate-400">{m.email}</span>
        </span>
        <time dateTime={m.received_at} title={formatDateTime(m.received_at)} className="text-right text-sm text-slate-600 dark:text-slate-400">
          {formatListTime(m.received_at, new Date())}
        </time>
        <span className="truncate text-sm text-slate-700 dark:text-slate-300">
          {m.company && <span className="font-medium">{m.company} · </span>}
          {m.message}
        </span>
        <span className="text-right">
          <MessageStatus m={m} />
        </span>
      </ConsoleLink>
    </li>
  );
}

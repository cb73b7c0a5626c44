/** One contact message with every field, and what staff do with it: handle or reopen, spam or not, reply, copy the address. */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { ArrowLeft, Check, Copy, Reply, RotateCcw, ShieldAlert, ShieldCheck } from "lucide-react";
import { messageCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { useConsole } from "../data/console-context";
import { MessageStatus } from "./message-status";
import { handledChange, messageById, updateMessage, type MessageChange } from "../data/queries";
import { CONSOLE_ROOT } from "../route";
import { ConsoleLink, useLocation } from "../router";
import { EmptyState, LoadingState, ProblemState, useFailedAction } from "../ui/states";
import type { ContactMessage } from "../data/tables";
import { formatDateTime } from "../time";
import { useDocumentTitle } from "../ui/document-title";
import { run } from "../data/answer";
import { useRead } from "../data/use-read";

/** replyHref is the mailto: link of Reply, with the subject filled in. */
export function replyHref(m: Pick<ContactMessage, "email">): string {
  return `mailto:${encodeURIComponent(m.email).replace(/%40/g, "@")}?subject=${encodeURIComponent(messageCopy.replySubject)}`;
}

export function MessageScreen({ id }: { id: string }) {
  const { client } = useConsole();
  const request = useRead({ table: "contact_messages", read: "by-id", params: id }, (signal) => messageById(client, id).abortSignal(signal));
  const { reload } = request;
  const { search } = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = request.phase === "done";
  const shown = request.phase === "done" ? request.data : request.phase === "loading" ? request.last?.data : undefined;
  useDocumentTitle(shown ? (shown[0] ? messageCopy.documentTitle(shown[0].name) : messageCopy.notFound.title) : messageCopy.loadingTitle);
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);
  return (
    <section aria-labelledby="screen-title" className="flex flex-col gap-4">
      <ConsoleLink href={`${CONSOLE_ROOT}/inbox${search}`} className="inline-flex w-fit items-center gap-1.5 rounded-md text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {messageCopy.back}
      </ConsoleLink>
      {request.phase === "failed" ? (
        <ProblemState problem={request.problem} onRetry={reload} />
      ) : request.phase === "loading" && !request.last ? (
        <LoadingState />
      ) : (
        <Message rows={request.phase === "done" ? request.data : (request.last?.data ?? [])} heading={heading} />
      )}
    </section>
  );
}

function Message({ rows, heading }: { rows: ContactMessage[]; heading: React.RefObject<HTMLHeadingElement | null> }) {
  const [m, setM] = useState<ContactMessage | undefined>(rows[0]);
  useEffect(() => setM(rows[0]), [rows]);
  if (!m) {
    return (
      <>
        <h1 id="screen-title" className="sr-only">
          {messageCopy.notFound.title}
        </h1>
        <EmptyState {...messageCopy.notFound} />
      </>
    );
  }
  return (
    <article className="flex flex-col gap-5 rounded-xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900/40">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 id="screen-title" ref={heading} tabIndex={-1} className="break-words text-2xl font-bold tracking-tight focus:outline-none">
            {m.name}
          </h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            <time dateTime={m.received_at}>{formatDateTime(m.received_at)}</time>
          </p>
        </div>
        <MessageStatus m={m} />
      </header>
      <Actions m={m} onChanged={setM} />
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr] sm:gap-y-3">
        <Field label={messageCopy.fields.email}>
          <a href={replyHref(m)} className="break-all text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">
            {m.email}
          </a>
        </Field>
        <Field label={messageCopy.fields.company}>{m.company || <None />}</Field>
        <Field label={messageCopy.fields.phone}>{m.phone ? <a href={`tel:${m.phone.replace(/[^\d+]/g, "")}`} className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">{m.phone}</a> : <None />}</Field>
        <Field label={messageCopy.fields.received}>
          <time dateTime={m.received_at}>{formatDateTime(m.received_at)}</time>
        </Field>
        <Field label={messageCopy.fields.status}>
          {m.handled_at ? messageCopy.handledBy(m.handled_by ?? "?", formatDateTime(m.handled_at)) : <MessageStatus m={m} />}
        </Field>
        <Field label={messageCopy.fields.id}>
          <span className="break-all font-mono text-xs">{m.id}</span>
        </Field>
      </dl>
      <div>
        <h2 className="text-sm font-semibold text-slate-600 dark:text-slate-400">{messageCopy.fields.message}</h2>
        <p className="mt-2 whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-4 text-slate-900 dark:bg-slate-900 dark:text-slate-100">{m.message}</p>
      </div>
    </article>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="mt-2 font-semibold text-slate-600 first:mt-0 sm:mt-0 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}

function None() {
  return <span className="text-slate-500 dark:text-slate-400">{messageCopy.none}</span>;
}

type Action = keyof typeof messageCopy.done;

function Actions({ m, onChanged }: { m: ContactMessage; onChanged: (m: ContactMessage) => void }) {
  const { client, session, cache } = useConsole();
  const failed = useFailedAction();
  const [busy, setBusy] = useState<Action | null>(null);
  const change = async (action: Action, c: MessageChange) => {
    setBusy(action);
    const r = await run(updateMessage(client, m.id, c));
    setBusy(null);
    if (!r.ok) {
      failed(r.problem);
      return;
    }
    if (r.data[0]) onChanged(r.data[0]);
    // The inbox and the open count change with it, whether or not the live feed says so.
    cache.invalidate("contact_messages");
    toast({ title: messageCopy.done[action] });
  };
  const copyEmail = async () => {
    try {
      await navigator.clipboard.writeText(m.email);
      toast({ title: messageCopy.done.copied, description: m.email });
    } catch {
      toast({ title: messageCopy.copyFailed, variant: "destructive" });
    }
  };
  const by = session.user.email ?? session.user.id;
  return (
    <div className="flex flex-wrap gap-2">
      <a href={replyHref(m)} className={buttonClass("primary", "sm")}>
        <Reply aria-hidden="true" className="size-4" />
        {messageCopy.actions.reply}
      </a>
      {m.handled_at ? (
        <button type="button" disabled={busy !== null} className={buttonClass("secondary", "sm")} onClick={() => change("reopen", handledChange(false, by, new Date()))}>
          <RotateCcw aria-hidden="true" className="size-4" />
          {messageCopy.actions.reopen}
        </button>
      ) : (
        <button type="button" disabled={busy !== null} className={buttonClass("secondary", "sm")} onClick={() => change("handle", handledChange(true, by, new Date()))}>
          <Check aria-hidden="true" className="size-4" />
          {messageCopy.actions.handle}
        </button>
      )}
      {m.spam ? (
        <button type="button" disabled={busy !== null} className={buttonClass("secondary", "sm")} onClick={() => change("notSpam", { spam: false })}>
          <ShieldCheck aria-hidden="true" className="size-4" />
          {messageCopy.actions.notSpam}
        </button>
      ) : (
        <button type="button" disabled={busy !== null} className={buttonClass("secondary", "sm")} onClick={() => change("spam", { spam: true })}>
          <ShieldAlert aria-hidden="true" className="size-4" />
          {messageCopy.actions.spam}
        </button>
      )}
      <button type="button" className={buttonClass("ghost", "sm")} onClick={copyEmail}>
        <Copy aria-hidden="true" className="size-4" />
        {messageCopy.actions.copyEmail}
      </button>
    </div>
  );
}

/**
 * FileDetails is a file's modal dialog on the Files screen: its path, size,
 * type and time, an image's preview, and what staff do with it: replace it
 * (with a progress bar), rename or move it, copy its public link (public
 * buckets) or a signed link valid for a chosen time, and delete it after a
 * confirmation. Every action shows that it runs, and a refusal in full.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Copy, FolderInput, Link2, RefreshCw, Trash2, X } from "lucide-react";
import { filesCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { useConsole } from "../data/console-context";
import { problemOf, storageFailure, type StorageFailure } from "../data/problem";
import { STORAGE_TABLE } from "../data/tables";
import { useRead } from "../data/use-read";
import { FailureText } from "./file-failure";
import { formatSize, isPreviewable, pathProblem, refusalOf } from "./files-path";
import { formatDateTime } from "../time";
import { UploadRow, useUploads } from "./uploads";

/** A file as the Files screen lists it. */
export type FileEntry = { path: string; name: string; size: number; type: string; modified: string; downloads: number };

/** How long a preview's signed URL works, in seconds. */
const PREVIEW_SECONDS = 300;

type Props = { bucket: string; isPublic: boolean; entry: FileEntry; onClose: () => void; onChanged: () => void };

/**
 * useFailure keeps what an action of the dialog failed with; a failure that
 * is not a refusal of the action (a session that ended, the two-step check)
 * goes to the sign-in flow too.
 */
function useFailure() {
  const { reportProblem } = useConsole();
  const [failure, setFailure] = useState<StorageFailure>();
  const fail = useCallback(
    (f: StorageFailure | undefined) => {
      setFailure(f);
      if (f && !refusalOf(f)) reportProblem(problemOf(f));
    },
    [reportProblem],
  );
  return [failure, fail] as const;
}

export function FileDetails({ bucket, isPublic, entry, onClose, onChanged }: Props) {
  const { client } = useConsole();
  const files = client.storage.from(bucket);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [failure, setFailure] = useFailure();
  const [busy, setBusy] = useState<"move" | "delete">();
  const replacePicker = useRef<HTMLInputElement>(null);
  const { uploads, start } = useUploads(() => {
    toast({ title: filesCopy.replaced(entry.name) });
    onChanged();
  });
  const replacing = uploads.at(-1);

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);

  const remove = async () => {
    if (!window.confirm(filesCopy.remove.confirm(entry.path))) return;
    setFailure(undefined);
    setBusy("delete");
    const { data, error } = await files.remove([entry.path]);
    setBusy(undefined);
    // storage/v1 answers a name that is already gone with an empty list, as Supabase does.
    if (error || !data?.length) {
      setFailure(error ? storageFailure(error) : { status: 400, statusCode: "404", message: "Object not found" });
      return;
    }
    toast({ title: filesCopy.remove.done(entry.path) });
    onClose();
    onChanged();
  };

  const move = async (to: string) => {
    setFailure(undefined);
    setBusy("move");
    const { error } = await files.move(entry.path, to);
    setBusy(undefined);
    if (error) {
      setFailure(storageFailure(error));
      return;
    }
    toast({ title: filesCopy.move.done(to) });
    onClose();
    onChanged();
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-0 mx-auto mt-[4vh] w-[calc(100%-1.5rem)] max-w-2xl rounded-2xl bg-transparent p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/60 sm:mt-[8vh] dark:text-slate-100"
      data-testid="file-details"
    >
      <div className="flex max-h-[90dvh] flex-col gap-5 overflow-y-auto bg-white p-5 ring-1 ring-slate-900/10 sm:max-h-[84dvh] sm:p-6 dark:bg-slate-900 dark:ring-white/10">
        <header className="flex items-start justify-between gap-3">
          <h2 id={titleId} className="min-w-0 break-words text-xl font-bold tracking-tight">
            {entry.name}
          </h2>
          <button type="button" onClick={() => dialog.current?.close()} className={buttonClass("ghost", "sm", "size-9 shrink-0 px-0")} aria-label={filesCopy.close}>
            <X aria-hidden="true" className="size-5" />
          </button>
        </header>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <Field label={filesCopy.details.path}>
            <span className="break-words">{`${bucket}/${entry.path}`}</span>
          </Field>
          <Field label={filesCopy.details.size}>
            <span data-testid="file-size">{formatSize(entry.size)}</span>
          </Field>
          <Field label={filesCopy.details.type}>{entry.type || "—"}</Field>
          <Field label={filesCopy.details.modified}>{entry.modified ? <time dateTime={entry.modified}>{formatDateTime(entry.modified)}</time> : "—"}</Field>
          {isPublic && <Field label={filesCopy.details.downloads}>{entry.downloads.toLocaleString("en-US")}</Field>}
        </dl>
        {isPreviewable(entry.type) && <Preview bucket={bucket} entry={entry} />}
        {failure && <FailureText failure={failure} className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 dark:border-red-900 dark:bg-red-950/40" />}
        <div className="flex flex-wrap gap-2">
          <button type="button" className={buttonClass("secondary", "sm")} onClick={() => replacePicker.current?.click()} disabled={replacing?.state === "uploading"}>
            <RefreshCw aria-hidden="true" className="size-4" />
            {filesCopy.replace}
          </button>
          <input
            ref={replacePicker}
            type="file"
            hidden
            data-testid="replace-input"
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = "";
              if (f) void start(bucket, entry.path, f, true);
            }}
          />
          <button type="button" className={buttonClass("secondary", "sm", "text-red-700 dark:text-red-300")} onClick={() => void remove()} disabled={busy !== undefined}>
            <Trash2 aria-hidden="true" className="size-4" />
            {busy === "delete" ? filesCopy.remove.busy : filesCopy.remove.action}
          </button>
        </div>
        {replacing && (
          <ul className="-mx-4 rounded-lg border border-slate-200 dark:border-slate-700">
            <UploadRow u={replacing} />
          </ul>
        )}
        <MoveForm entry={entry} busy={busy === "move"} onMove={(to) => void move(to)} />
        <ShareLinks bucket={bucket} isPublic={isPublic} entry={entry} />
      </div>
    </dialog>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}

/** Preview shows an image through a short-lived signed URL (private buckets too), fetched again when the file changes. */
function Preview({ bucket, entry }: { bucket: string; entry: FileEntry }) {
  const { client } = useConsole();
  const signed = useRead({ table: STORAGE_TABLE, read: "preview", params: [bucket, entry.path, entry.modified] }, () =>
    client.storage.from(bucket).createSignedUrl(entry.path, PREVIEW_SECONDS),
  );
  const [broken, setFailed] = useState(false);
  const src = (signed.phase === "done" ? signed.data : signed.phase === "loading" ? signed.last?.data : undefined)?.signedUrl;
  useEffect(() => setFailed(false), [src]);
  if (broken || signed.phase === "failed") return <p className="text-sm text-slate-600 dark:text-slate-400">{filesCopy.details.previewFailed}</p>;
  if (!src) return <div className="h-48 animate-pulse rounded-lg bg-slate-100 motion-reduce:animate-none dark:bg-slate-800" />;
  return (
    <img
      src={src}
      alt={filesCopy.details.preview(entry.name)}
      onError={() => setFailed(true)}
      className="max-h-72 min-h-16 min-w-16 w-auto max-w-full self-start rounded-lg border border-slate-200 bg-[repeating-conic-gradient(#e2e8f0_0_25%,transparent_0_50%)] bg-[length:16px_16px] object-contain dark:border-slate-700"
    />
  );
}

function MoveForm({ entry, busy, onMove }: { entry: FileEntry; busy: boolean; onMove: (to: string) => void }) {
  const [to, setTo] = useState(entry.path);
  const [touched, setTouched] = useState(false);
  const id = useId();
  const problem = pathProblem(to.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem || to.trim() === entry.path) return;
    onMove(to.trim());
  };
  const shown = touched && problem;
  return (
    <form onSubmit={submit} className="flex flex-col gap-2 border-t border-slate-200 pt-4 dark:border-slate-700" noValidate>
      <h3 className="text-sm font-semibold">{filesCopy.move.title}</h3>
      <label htmlFor={`${id}-to`} className="text-sm">
        {filesCopy.move.label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={`${id}-to`}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          aria-describedby={`${id}-hint${shown ? ` ${id}-problem` : ""}`}
          aria-invalid={shown ? true : undefined}
          spellCheck={false}
          autoComplete="off"
          className="h-9 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-sm sm:flex-1 focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-slate-600 dark:bg-slate-950"
        />
        <button type="submit" className={buttonClass("secondary", "sm")} disabled={busy}>
          <FolderInput aria-hidden="true" className="size-4" />
          {busy ? filesCopy.move.busy : filesCopy.move.submit}
        </button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
        {filesCopy.move.hint}
      </p>
      {shown && (
        <p id={`${id}-problem`} role="alert" className="text-sm text-red-800 dark:text-red-200">
          {filesCopy.pathProblems[problem]}
        </p>
      )}
    </form>
  );
}

function ShareLinks({ bucket, isPublic, entry }: { bucket: string; isPublic: boolean; entry: FileEntry }) {
  const { client } = useConsole();
  const files = client.storage.from(bucket);
  const id = useId();
  const expiries = filesCopy.links.expiries;
  const [seconds, setSeconds] = useState<number>(expiries[0].seconds);
  const [signed, setSigned] = useState<{ url: string; until: Date }>();
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useFailure();
  const create = async () => {
    setFailure(undefined);
    setCreating(true);
    const asked = Date.now();
    const { data, error } = await files.createSignedUrl(entry.path, seconds);
    setCreating(false);
    if (error || !data) setFailure(storageFailure(error));
    else setSigned({ url: data.signedUrl, until: new Date(asked + seconds * 1000) });
  };
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 border-t border-slate-200 pt-4 dark:border-slate-700">
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        {filesCopy.links.title}
      </h3>
      {isPublic && <LinkField label={filesCopy.links.publicLabel} url={files.getPublicUrl(entry.path).data.publicUrl} testId="public-link" />}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-expiry`} className="text-sm">
            {filesCopy.links.expiryLabel}
          </label>
          <select
            id={`${id}-expiry`}
            value={seconds}
            onChange={(e) => {
              setSeconds(Number(e.target.value));
              setSigned(undefined);
            }}
            className="h-9 rounded-lg border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-slate-600 dark:bg-slate-950"
          >
            {expiries.map((x) => (
              <option key={x.seconds} value={x.seconds}>
                {x.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className={buttonClass("secondary", "sm")} onClick={() => void create()} disabled={creating}>
          <Link2 aria-hidden="true" className="size-4" />
          {creating ? filesCopy.links.creating : filesCopy.links.create}
        </button>
      </div>
      {failure && <FailureText failure={failure} />}
      {signed && (
        <>
          <LinkField label={filesCopy.links.signedLabel} url={signed.url} testId="signed-link" />
          <p className="-mt-2 text-xs text-slate-600 dark:text-slate-400">{filesCopy.links.expires(formatDateTime(signed.until.toISOString()))}</p>
        </>
      )}
    </section>
  );
}

/** LinkField is a read-only field with a link and a Copy button; "copied" (or why not) is said beside it. */
function LinkField({ label, url, testId }: { label: string; url: string; testId: string }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [said, setSaid] = useState<{ ok: boolean; text: string }>();
  useEffect(() => setSaid(undefined), [url]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setSaid({ ok: true, text: filesCopy.links.copied });
    } catch {
      field.current?.select();
      setSaid({ ok: false, text: filesCopy.links.copyFailed });
    }
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          ref={field}
          readOnly
          value={url}
          data-testid={testId}
          onFocus={(e) => e.currentTarget.select()}
          className="h-9 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-xs dark:border-slate-600 dark:bg-slate-950"
        />
        <button type="button" className={buttonClass("secondary", "sm", "shrink-0")} onClick={() => void copy()} aria-describedby={said ? `${id}-said` : undefined}>
          <Copy aria-hidden="true" className="size-4" />
          {filesCopy.links.copy}
        </button>
      </div>
      <p id={`${id}-said`} role="status" className={said?.ok === false ? "text-xs text-red-800 dark:text-red-200" : "text-xs text-emerald-800 dark:text-emerald-200"}>
        {said?.text}
      </p>
    </div>
  );
}

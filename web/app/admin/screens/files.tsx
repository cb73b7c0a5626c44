/**
 * The Files screen (/admin/files): the buckets of storage/v1, and inside a
 * bucket its folders and files (/admin/files/{bucket}/{folder…}) with
 * breadcrumbs, upload by button or drag and drop with a progress bar per
 * file, and a file's details (file-details.tsx) to replace, move, share or
 * delete it. Everything goes through the console's supabase-js client,
 * except uploads, which need their progress (upload.ts).
 */
import { useCallback, useRef, useState, type DragEvent } from "react";
import { ChevronRight, FileText, Folder, Globe, Lock, Upload as UploadIcon } from "lucide-react";
import { filesCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { useConsole } from "../data/console-context";
import { DataTable } from "../ui/data-table";
import { FileDetails, type FileEntry } from "./file-details";
import { breadcrumbs, filesPath, formatSize, joinPath } from "./files-path";
import { ConsoleLink } from "../router";
import { useDocumentTitle } from "../ui/document-title";
import { EmptyState, LoadingState, ProblemState } from "../ui/states";
import { formatDateTime, formatListTime } from "../time";
import { UploadRow, useUploads } from "./uploads";
import type { ConsoleClient } from "../data/client";
import { STORAGE_TABLE } from "../data/tables";
import { useRead } from "../data/use-read";

/** A bucket as storage/v1 lists it (the fields this screen reads). */
type Bucket = { id: string; name: string; public: boolean; file_size_limit?: number | null; allowed_mime_types?: string[] | null };

/** An entry of a folder's list: a folder has no id; an object's size, type and time are in metadata. */
type FileObject = { name: string; id: string | null; updated_at?: string | null; created_at?: string | null; metadata?: Record<string, unknown> | null };

/** The most entries a folder shows (storage/v1's largest page). */
const FOLDER_LIMIT = 1000;

function listFolder(client: ConsoleClient, bucket: string, prefix: string, signal: AbortSignal) {
  return client.storage.from(bucket).list(prefix, { limit: FOLDER_LIMIT, sortBy: { column: "name", order: "asc" } }, { signal });
}

export function FilesScreen({ bucket, prefix }: { bucket?: string; prefix: string }) {
  useDocumentTitle(filesCopy.documentTitle(bucket, prefix));
  return (
    <section aria-labelledby="screen-title" className="flex flex-col gap-4">
      <h1 id="screen-title" tabIndex={-1} className="text-2xl font-bold tracking-tight focus:outline-none">
        {filesCopy.title}
      </h1>
      {bucket === undefined ? <BucketList /> : <BucketFolder key={bucket} bucket={bucket} prefix={prefix} />}
    </section>
  );
}

function BucketList() {
  const { client } = useConsole();
  // supabase-js 2.109 takes no signal for listBuckets: leaving drops its answer.
  const request = useRead<Bucket[]>({ table: STORAGE_TABLE, read: "buckets" }, () => client.storage.listBuckets());
  if (request.phase === "failed") return <ProblemState problem={request.problem} onRetry={request.reload} />;
  if (request.phase === "loading") return <LoadingState />;
  if (request.data.length === 0) return <EmptyState {...filesCopy.noBuckets} />;
  return (
    <ul aria-label={filesCopy.bucketsLabel} className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900/40" data-testid="bucket-list">
      {request.data.map((b) => (
        <li key={b.id}>
          <ConsoleLink href={filesPath(b.id)} className="flex items-center gap-3 px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 dark:hover:bg-slate-900">
            <span className="min-w-0 flex-1">
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">{b.name}</span>
                <Visibility bucket={b} />
              </span>
              <span className="mt-0.5 block text-sm text-slate-600 dark:text-slate-400">{bucketHint(b)}</span>
            </span>
            <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-slate-500 dark:text-slate-400" />
          </ConsoleLink>
        </li>
      ))}
    </ul>
  );
}

/** bucketHint says who may open a bucket's files and what it takes. */
function bucketHint(b: Bucket): string {
  const parts: string[] = [b.public ? filesCopy.publicHint : filesCopy.privateHint];
  if (b.file_size_limit) parts.push(filesCopy.sizeLimit(formatSize(b.file_size_limit)));
  if (b.allowed_mime_types?.length) parts.push(filesCopy.types(b.allowed_mime_types.join(", ")));
  return parts.join(" · ");
}

function Visibility({ bucket }: { bucket: Pick<Bucket, "public"> }) {
  const Icon = bucket.public ? Globe : Lock;
  return (
    <span
      data-testid="bucket-visibility"
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium",
        bucket.public ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200" : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {bucket.public ? filesCopy.public : filesCopy.private}
    </span>
  );
}

function Breadcrumbs({ bucket, prefix }: { bucket: string; prefix: string }) {
  const crumbs = breadcrumbs(filesCopy.title, bucket, prefix);
  return (
    <nav aria-label={filesCopy.breadcrumbsLabel}>
      <ol className="flex flex-wrap items-center gap-1 text-sm">
        {crumbs.map((c, i) => (
          <li key={c.href} className="flex min-w-0 items-center gap-1">
            {i > 0 && <ChevronRight aria-hidden="true" className="size-3.5 shrink-0 text-slate-500 dark:text-slate-400" />}
            {c.current ? (
              <span aria-current="page" className="truncate font-semibold">
                {c.label}
              </span>
            ) : (
              <ConsoleLink href={c.href} className="truncate rounded-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300">
                {c.label}
              </ConsoleLink>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** entryOf reads a listed object's size, type, time and downloads (storage/v1 puts them in metadata). */
function entryOf(prefix: string, o: FileObject): FileEntry {
  const m = (o.metadata ?? {}) as { size?: number; mimetype?: string; lastModified?: string; downloads?: number };
  return {
    path: joinPath(prefix, o.name),
    name: o.name,
    size: m.size ?? 0,
    type: m.mimetype ?? "",
    modified: m.lastModified ?? o.updated_at ?? o.created_at ?? "",
    downloads: m.downloads ?? 0,
  };
}

function BucketFolder({ bucket, prefix }: { bucket: string; prefix: string }) {
  const { client } = useConsole();
  // Nor for getBucket.
  const info = useRead<Bucket>({ table: STORAGE_TABLE, read: "bucket", params: bucket }, () => client.storage.getBucket(bucket));
  const list = useRead<FileObject[]>({ table: STORAGE_TABLE, read: "folder", params: [bucket, prefix] }, (signal) => listFolder(client, bucket, prefix, signal));
  const { reload } = list;
  const { uploads, start, dismiss } = useUploads(useCallback(() => reload(), [reload]));
  const [openPath, setOpenPath] = useState<string>();
  const picker = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const uploadAll = (files: FileList | File[]) => {
    for (const f of Array.from(files)) void start(bucket, joinPath(prefix, f.name), f, false);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length > 0) uploadAll(e.dataTransfer.files);
  };
  const onDragOver = (e: DragEvent) => {
    if (!Array.from(e.dataTransfer.types).includes("Files")) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
    setDragging(true);
  };

  const where = [bucket, prefix].filter(Boolean).join("/");
  const shown = list.phase === "done" ? list.data : list.phase === "loading" ? list.last?.data : undefined;
  const entries = shown ?? [];
  const folders = entries.filter((o) => o.id === null);
  const files = entries.filter((o) => o.id !== null).map((o) => entryOf(prefix, o));
  const bucketInfo = info.phase === "done" ? info.data : undefined;
  // Public buckets count their downloads (which templates visitors take).
  const counted = bucketInfo?.public ?? false;
  const here = uploads.filter((u) => u.bucket === bucket);
  // The details follow the list: a replaced file shows its new size and time; a deleted or moved one closes.
  const open = files.find((f) => f.path === openPath);

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 flex-wrap items-center gap-3">
          <Breadcrumbs bucket={bucket} prefix={prefix} />
          {bucketInfo && <Visibility bucket={bucketInfo} />}
        </div>
        <button type="button" className={buttonClass("primary", "sm")} onClick={() => picker.current?.click()}>
          <UploadIcon aria-hidden="true" className="size-4" />
          {filesCopy.upload}
        </button>
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="upload-input"
          onChange={(e) => {
            if (e.target.files) uploadAll(e.target.files);
            e.target.value = "";
          }}
        />
      </div>
      {bucketInfo && <p className="-mt-2 text-sm text-slate-600 dark:text-slate-400">{bucketHint(bucketInfo)}</p>}
      {here.length > 0 && (
        <section aria-labelledby="uploads-title" className="overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900/40">
          <h2 id="uploads-title" className="border-b border-slate-200 px-4 py-2 text-sm font-semibold dark:border-slate-800">
            {filesCopy.uploads}
          </h2>
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="upload-list">
            {here.map((u) => (
              <UploadRow key={u.id} u={u} onDismiss={() => dismiss(u.id)} onReplace={() => void start(u.bucket, u.path, u.file, true)} />
            ))}
          </ul>
        </section>
      )}
      <div
        data-testid="drop-zone"
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        aria-busy={list.phase === "loading"}
        className={cn("flex flex-col gap-3 rounded-xl outline-2 outline-offset-4", dragging ? "outline-dashed outline-brand-600 dark:outline-brand-300" : "outline-transparent")}
      >
        {list.phase === "failed" ? (
          <ProblemState problem={list.problem} onRetry={reload} />
        ) : !shown ? (
          <LoadingState />
        ) : entries.length === 0 ? (
          <EmptyState {...filesCopy.empty} />
        ) : (
          <DataTable
            caption={where}
            columns={[filesCopy.columns.name, filesCopy.columns.size, filesCopy.columns.type, filesCopy.columns.modified,
              ...(counted ? [filesCopy.columns.downloads] : [])]}
            rows={[
              ...folders.map((f) => ({
                key: `folder:${f.name}`,
                cells: [
                  <ConsoleLink key="name" href={filesPath(bucket, joinPath(prefix, f.name))} className="inline-flex items-center gap-2 rounded-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300">
                    <Folder aria-hidden="true" className="size-4 shrink-0" />
                    {f.name}
                  </ConsoleLink>,
                  "—",
                  filesCopy.folder,
                  "—",
                  ...(counted ? ["—"] : []),
                ],
              })),
              ...files.map((f) => ({
                key: `file:${f.name}`,
                cells: [
                  <button
                    key="name"
                    type="button"
                    onClick={() => setOpenPath(f.path)}
                    aria-haspopup="dialog"
                    className="inline-flex items-center gap-2 rounded-sm text-left font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300"
                  >
                    <FileText aria-hidden="true" className="size-4 shrink-0" />
                    <span className="break-all">{f.name}</span>
                  </button>,
                  formatSize(f.size),
                  f.type || "—",
                  f.modified ? (
                    <time key="time" dateTime={f.modified} title={formatDateTime(f.modified)}>
                      {formatListTime(f.modified, new Date())}
                    </time>
                  ) : (
                    "—"
                  ),
                  ...(counted ? [f.downloads.toLocaleString("en-US")] : []),
                ],
              })),
            ]}
          />
        )}
        {entries.length >= FOLDER_LIMIT && <p className="text-sm text-slate-600 dark:text-slate-400">{filesCopy.truncated(FOLDER_LIMIT)}</p>}
        <p className={cn("rounded-xl border-2 border-dashed px-4 py-6 text-center text-sm", dragging ? "block border-brand-600 text-brand-800 dark:border-brand-300 dark:text-brand-100" : "hidden border-slate-300 text-slate-600 sm:block dark:border-slate-700 dark:text-slate-400")}>
          {dragging ? filesCopy.dropNow : filesCopy.dropHere(where)}
        </p>
      </div>
      {open && (
        <FileDetails
          key={open.path}
          bucket={bucket}
          isPublic={bucketInfo?.public ?? false}
          entry={open}
          onClose={() => setOpenPath(undefined)}
          onChanged={reload}
        />
      )}
    </>
  );
}

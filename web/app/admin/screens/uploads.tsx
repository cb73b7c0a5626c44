/**
 * Uploads of the Files screen: useUploads starts them (upload.ts, one
 * request a file, with its progress) and keeps each one's state until it is
 * dismissed; UploadList shows them, each with its progress bar, and a
 * refusal in full, with "Replace the existing file" when the name is taken.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { CheckCircle2, X, XCircle } from "lucide-react";
import { filesCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { anonKeyOf } from "../data/client";
import { useConsole } from "../data/console-context";
import { problemOf, type StorageFailure } from "../data/problem";
import { pathProblem, percent, refusalOf } from "./files-path";
import { FailureText } from "./file-failure";
import { uploadObject } from "./upload";

export type Upload = {
  id: number;
  bucket: string;
  path: string;
  file: File;
  loaded: number;
  total: number;
  state: "uploading" | "done" | "failed";
  failure?: StorageFailure;
};

let nextId = 1;

/**
 * useUploads uploads files and keeps their states; onUploaded runs after
 * each success (to show the new file in the list). Leaving the screen
 * aborts the uploads under way.
 */
export function useUploads(onUploaded: (u: Upload) => void) {
  const { client, reportProblem } = useConsole();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const done = useRef(onUploaded);
  done.current = onUploaded;
  const screen = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    screen.current = controller;
    return () => controller.abort();
  }, []);

  const change = (id: number, patch: Partial<Upload>) => setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...patch } : u)));

  const start = useCallback(
    async (bucket: string, path: string, file: File, upsert: boolean) => {
      const id = nextId++;
      const upload: Upload = { id, bucket, path, file, loaded: 0, total: file.size, state: "uploading" };
      setUploads((all) => [...all.filter((u) => !(u.bucket === bucket && u.path === path && u.state !== "uploading")), upload]);
      const bad = pathProblem(path);
      if (bad) {
        change(id, { state: "failed", failure: { status: 400, statusCode: "400", message: filesCopy.pathProblems[bad] } });
        return;
      }
      const { signal } = screen.current;
      const { data } = await client.auth.getSession();
      if (signal.aborted) return;
      if (!data.session) {
        change(id, { state: "failed", failure: { status: 401, message: "No session" } });
        reportProblem({ kind: "session", message: "" });
        return;
      }
      const result = await uploadObject({
        anonKey: anonKeyOf(client),
        accessToken: data.session.access_token,
        bucket,
        path,
        file,
        upsert,
        onProgress: (loaded, total) => change(id, { loaded, total }),
        signal,
      });
      if (signal.aborted) return;
      if (result.ok) {
        change(id, { state: "done", loaded: file.size, total: file.size });
        done.current({ ...upload, state: "done" });
      } else {
        change(id, { state: "failed", failure: result.failure });
        // A session that ended, or one that must pass the two-step check first, goes to the sign-in flow too.
        if (!refusalOf(result.failure)) reportProblem(problemOf(result.failure));
      }
    },
    [client, reportProblem],
  );

  const dismiss = useCallback((id: number) => setUploads((all) => all.filter((u) => u.id !== id)), []);
  return { uploads, start, dismiss };
}

/** UploadRow is one upload: its name, a progress bar and what became of it. */
export function UploadRow({ u, onReplace, onDismiss }: { u: Upload; onReplace?: () => void; onDismiss?: () => void }) {
  const pct = u.state === "done" ? 100 : percent(u.loaded, u.total);
  const name = u.path.split("/").at(-1) ?? u.path;
  return (
    <li className="flex flex-col gap-1.5 px-4 py-3" data-testid="upload" data-state={u.state}>
      <div className="flex items-center gap-2">
        {u.state === "done" && <CheckCircle2 aria-hidden="true" className="size-4 shrink-0 text-emerald-700 dark:text-emerald-300" />}
        {u.state === "failed" && <XCircle aria-hidden="true" className="size-4 shrink-0 text-red-700 dark:text-red-300" />}
        <span className="min-w-0 flex-1 truncate text-sm font-medium" title={u.path}>
          {name}
        </span>
        <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
          {u.state === "uploading" ? filesCopy.uploading(pct) : u.state === "done" ? filesCopy.uploaded : filesCopy.uploadFailed}
        </span>
        {onDismiss && u.state !== "uploading" && (
          <button type="button" onClick={onDismiss} className={buttonClass("ghost", "sm", "size-9 px-0")} aria-label={`${filesCopy.dismiss}: ${name}`}>
            <X aria-hidden="true" className="size-4" />
          </button>
        )}
      </div>
      <progress
        max={100}
        value={pct}
        aria-label={filesCopy.progressLabel(name)}
        className={cn(
          "h-2 w-full overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-slate-200 dark:[&::-webkit-progress-bar]:bg-slate-700",
          u.state === "failed" ? "[&::-webkit-progress-value]:bg-red-600 [&::-moz-progress-bar]:bg-red-600" : "[&::-webkit-progress-value]:bg-brand-600 [&::-moz-progress-bar]:bg-brand-600",
        )}
      />
      {u.state === "failed" && u.failure && (
        <div className="flex flex-wrap items-center gap-2">
          <FailureText failure={u.failure} className="min-w-0 flex-1" />
          {refusalOf(u.failure) === "exists" && onReplace && (
            <button type="button" onClick={onReplace} className={buttonClass("secondary", "sm")}>
              {filesCopy.replaceExisting}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** What a failed storage/v1 request says to staff: what it means, then the server's own words, so nothing is lost. */
import { filesCopy } from "~/content/console";
import { cn } from "~/lib/cn";
import { asRequestFailure, refusalOf, type StorageFailure } from "./files-path";
import { classify } from "./problem";
import { problemText } from "./states";

/** describeFailure is the title and text of a failure: a known refusal's meaning and the server's message, or the console's words for the rest. */
export function describeFailure(f: StorageFailure): { title: string; text: string } {
  const refusal = refusalOf(f);
  if (refusal) return { title: filesCopy.refusals[refusal], text: filesCopy.serverSaid(f.message) };
  const { title, text } = problemText(classify(asRequestFailure(f)));
  // With no answer (status 0) the message is the browser's, not the server's.
  return { title, text: f.status === 0 || !f.message || text === f.message ? text : `${text} ${filesCopy.serverSaid(f.message)}` };
}

/** storageFailure reads a supabase-js storage error (StorageApiError: status, statusCode, message; or a network failure). */
export function storageFailure(error: unknown): StorageFailure {
  const e = error as { status?: unknown; statusCode?: unknown; message?: unknown; name?: unknown };
  return {
    status: typeof e?.status === "number" ? e.status : 0,
    statusCode: e?.statusCode === undefined ? undefined : String(e.statusCode),
    message: typeof e?.message === "string" ? e.message : String(error),
    name: typeof e?.name === "string" ? e.name : undefined,
  };
}

export function FailureText({ failure, className }: { failure: StorageFailure; className?: string }) {
  const { title, text } = describeFailure(failure);
  return (
    <p role="alert" className={cn("text-sm text-red-800 dark:text-red-200", className)}>
      <strong className="font-semibold">{title}</strong> {text}
    </p>
  );
}

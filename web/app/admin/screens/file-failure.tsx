/** What a failed storage/v1 request says to staff: what it means, then the server's own words, so nothing is lost. */
import { filesCopy } from "~/content/console";
import { cn } from "~/lib/cn";
import { problemOf, type StorageFailure } from "../data/problem";
import { refusalOf } from "./files-path";
import { problemText } from "../ui/states";

/** describeFailure is the title and text of a failure: a known refusal's meaning and the server's message, or the console's words for the rest. */
export function describeFailure(f: StorageFailure): { title: string; text: string } {
  const refusal = refusalOf(f);
  if (refusal) return { title: filesCopy.refusals[refusal], text: filesCopy.serverSaid(f.message) };
  const { title, text } = problemText(problemOf(f));
  // With no answer (status 0) the message is the browser's, not the server's.
  return { title, text: f.status === 0 || !f.message || text === f.message ? text : `${text} ${filesCopy.serverSaid(f.message)}` };
}

export function FailureText({ failure, className }: { failure: StorageFailure; className?: string }) {
  const { title, text } = describeFailure(failure);
  return (
    <p role="alert" className={cn("text-sm text-red-800 dark:text-red-200", className)}>
      <strong className="font-semibold">{title}</strong> {text}
    </p>
  );
}

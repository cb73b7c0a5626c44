/** The states every screen shows around its data: loading, empty, and a problem with a way to try again. */
import { useCallback, type ReactNode } from "react";
import { AlertTriangle, Inbox, Loader2 } from "lucide-react";
import { listCopy, problemCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { useConsole } from "../data/console-context";
import type { Problem } from "../data/problem";

export function LoadingState({ label = listCopy.loading }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-2 py-16 text-sm text-slate-600 dark:text-slate-300">
      <Loader2 aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />
      {label}
    </div>
  );
}

export function EmptyState({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-slate-300 px-6 py-14 text-center dark:border-slate-700">
      <Inbox aria-hidden="true" className="size-8 text-slate-400 dark:text-slate-500" />
      <p className="font-semibold">{title}</p>
      <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">{text}</p>
      {children}
    </div>
  );
}

/** problemText is the title and text a person reads for a Problem. */
export function problemText(p: Problem): { title: string; text: string } {
  switch (p.kind) {
    case "network":
      return problemCopy.network;
    case "unavailable":
      return problemCopy.unavailable;
    default:
      // A message fit to show is the server's own sentence; a page of HTML (a proxy's error page) is not.
      return { title: problemCopy.other.title, text: p.message && p.message.length <= 300 && !p.message.includes("<") ? p.message : problemCopy.other.text };
  }
}

export function ProblemState({ problem, onRetry }: { problem: Problem; onRetry: () => void }) {
  const { title, text } = problemText(problem);
  return (
    <div role="alert" className="flex flex-col items-center gap-2 rounded-xl border border-red-200 bg-red-50 px-6 py-12 text-center dark:border-red-900 dark:bg-red-950/40">
      <AlertTriangle aria-hidden="true" className="size-8 text-red-700 dark:text-red-300" />
      <p className="font-semibold text-red-900 dark:text-red-100">{title}</p>
      <p className="max-w-md text-sm text-red-800 dark:text-red-200">{text}</p>
      <button type="button" onClick={onRetry} className={buttonClass("secondary", "sm", "mt-2")}>
        {listCopy.retry}
      </button>
    </div>
  );
}

/** useFailedAction is what an action (an export, a change to a message) does when it fails: the sign-in flow hears of it, the person reads it in a toast. */
export function useFailedAction(): (p: Problem) => void {
  const { reportProblem } = useConsole();
  return useCallback(
    (p: Problem) => {
      reportProblem(p);
      const { title, text } = problemText(p);
      toast({ title, description: text, variant: "destructive" });
    },
    [reportProblem],
  );
}

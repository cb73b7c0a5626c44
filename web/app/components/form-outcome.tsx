import { AlertCircle, CheckCircle2 } from "lucide-react";
import type { Link } from "~/content/types";
import { buttonClass } from "~/components/ui/button";

/**
 * FormOutcome is the body of a page a form posted without JavaScript lands
 * on: a confirmation (tone "success") or what was wrong ("problem"), with
 * the links onward.
 */
export function FormOutcome({
  tone,
  title,
  text,
  note,
  links,
}: {
  tone: "success" | "problem";
  title: string;
  text: string;
  note?: string;
  links: readonly Link[];
}) {
  const Icon = tone === "success" ? CheckCircle2 : AlertCircle;
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center sm:py-32">
      <Icon
        aria-hidden="true"
        className={tone === "success" ? "size-14 text-emerald-600 dark:text-emerald-400" : "size-14 text-red-600 dark:text-red-400"}
      />
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">{title}</h1>
      <p role={tone === "problem" ? "alert" : undefined} className="mt-4 text-lg text-slate-700 dark:text-slate-200">
        {text}
      </p>
      {note && <p className="mt-3 text-slate-600 dark:text-slate-400">{note}</p>}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {links.map((link, i) => (
          <a key={link.href} href={link.href} className={buttonClass(i === 0 ? "primary" : "secondary", "lg")}>
            {link.label}
          </a>
        ))}
      </div>
    </div>
  );
}

/** The frame of the screens before the console (sign-in, two-step check, required set-up), and their 6-digit code field. */
import type { ReactNode } from "react";
import { Logo } from "~/components/logo";
import { consoleShell } from "~/content/console";
import { ThemeToggle } from "~/components/theme-toggle";
import { useDocumentTitle } from "../ui/document-title";

/** AuthCard frames a screen before the console; documentTitle names it in the document title when its heading is too long for a tab. */
export function AuthCard({ title, documentTitle = title, children }: { title: string; documentTitle?: string; children: ReactNode }) {
  useDocumentTitle(documentTitle);
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex items-center justify-between px-4 py-3 sm:px-6">
        <a href="/" className="rounded-md focus-visible:outline-2 focus-visible:outline-brand-600">
          <Logo />
          <span className="sr-only">{consoleShell.backToSite}</span>
        </a>
        <ThemeToggle />
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pb-16 pt-8 sm:pt-16">
        <section aria-labelledby="auth-title" className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
          <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">{consoleShell.name}</p>
          <h1 id="auth-title" tabIndex={-1} className="mt-1 text-2xl font-bold tracking-tight focus:outline-none">
            {title}
          </h1>
          <div className="mt-4 flex flex-col gap-4">{children}</div>
        </section>
      </main>
    </div>
  );
}

export const inputClass =
  "h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 aria-invalid:border-red-700 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100 dark:aria-invalid:border-red-400";

/** The digits of a code: a code from a mail, an app or a message may come with spaces, dashes or full-width digits. */
export const CODE_LENGTH = 6;

/**
 * normaliseCode is what a code field keeps of what was typed or pasted: its
 * digits (full-width ones as ASCII), without the spaces, tabs, dashes or
 * other separators around or inside them, the first 6 of them. It runs on
 * every input, so a pasted "    434210" or " 434 210 " is cut only after
 * the separators are gone (the field has no maxlength, which the browser
 * would apply to the pasted text as it stands: WCAG 3.3.8).
 */
export function normaliseCode(raw: string): string {
  return raw.normalize("NFKC").replace(/\D/g, "").slice(0, CODE_LENGTH);
}

/** isCode says whether a code field's value is a whole code (6 digits): less is refused with the field's message. */
export const isCode = (code: string) => new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code);

/**
 * CodeField takes a 6-digit code: typed, pasted or filled by the browser,
 * with or without spaces and dashes (normaliseCode). describedBy names
 * what explains the code (read with the field's label).
 */
export function CodeField({
  id,
  label,
  value,
  onChange,
  error,
  autoFocus,
  describedBy,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  autoFocus?: boolean;
  describedBy?: string;
}) {
  const described = [describedBy, error ? `${id}-error` : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern={`[0-9]{${CODE_LENGTH}}`}
        required
        autoFocus={autoFocus}
        value={value}
        onChange={(e) => onChange(normaliseCode(e.target.value))}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={`${inputClass} font-mono text-lg tracking-[0.4em]`}
      />
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

export function FieldError({ id, text }: { id: string; text?: string }) {
  if (!text) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-700 dark:text-red-300">
      {text}
    </p>
  );
}

/** Notice is a short message above a form: information, or a problem. */
export function Notice({ tone = "info", children }: { tone?: "info" | "problem"; children: ReactNode }) {
  const cls =
    tone === "problem"
      ? "border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-100"
      : "border-brand-200 bg-brand-50 text-brand-900 dark:border-brand-800 dark:bg-brand-900/30 dark:text-brand-100";
  return (
    <p role={tone === "problem" ? "alert" : "status"} className={`rounded-lg border px-3 py-2 text-sm ${cls}`}>
      {children}
    </p>
  );
}

/** The frame of the screens before the console (sign-in, two-step check, required set-up), and their 6-digit code field. */
import type { ReactNode } from "react";
import { Logo } from "~/components/logo";
import { consoleShell } from "~/content/console";
import { ThemeToggle } from "~/components/theme-toggle";
import { useDocumentTitle } from "./document-title";

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

/** CodeField takes a 6-digit code (digits only; a pasted code with spaces is cleaned). */
export function CodeField({ id, label, value, onChange, error, autoFocus }: { id: string; label: string; value: string; onChange: (v: string) => void; error?: string; autoFocus?: boolean }) {
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
        pattern="[0-9]{6}"
        maxLength={6}
        required
        autoFocus={autoFocus}
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, "").slice(0, 6))}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
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

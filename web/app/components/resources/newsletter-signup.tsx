import { useId } from "react";
import { Mail } from "lucide-react";
import { newsletter } from "~/content/resources";
import { buttonClass } from "~/components/ui/button";
import { newsletterAction, subscribeNewsletter } from "~/lib/signup";
import { useSignupForm } from "~/lib/use-signup-form";
import { CaptchaBox } from "~/lib/captcha";
import { FormNote } from "~/components/ui/form-note";

/**
 * NewsletterSignup: idle → submitting ('Subscribing...', aria-disabled) → a
 * success toast and the field cleared; on failure an error toast and the
 * field kept (docs/requirements.md#sign-up-forms); the outcome stays under
 * the form until the visitor types again. The email is required and checked by
 * the browser. The button waits for hydration, so the form never submits
 * without its script (which would put the address in the URL).
 */
export function NewsletterSignup() {
  const { email, setEmail, pending: submitting, onSubmit, onInput, note, captcha, captchaMissing, inputId } = useSignupForm(subscribeNewsletter, newsletter);
  const headingId = useId();
  const noteId = useId();

  return (
    <section aria-labelledby={headingId} className="bg-slate-50 px-4 py-16 sm:px-6 sm:py-20 lg:px-8 dark:bg-slate-900/60">
      <div className="mx-auto max-w-3xl rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200 sm:p-12 dark:bg-slate-900 dark:ring-slate-800">
        <span className="mx-auto inline-flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
          <Mail aria-hidden="true" className="size-6" />
        </span>
        <h2 id={headingId} className="mt-4 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
          {newsletter.title}
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-slate-600 dark:text-slate-300">{newsletter.lead}</p>
        <form method="post" action={newsletterAction} onSubmit={onSubmit} onInput={onInput} className="mx-auto mt-8 flex max-w-md flex-col gap-3 sm:flex-row">
          <label htmlFor={inputId} className="sr-only">
            {newsletter.emailLabel}
          </label>
          <input
            id={inputId}
            type="email"
            name="email"
            required
            autoComplete="email"
            placeholder={newsletter.emailPlaceholder}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            readOnly={submitting}
            aria-describedby={note ? noteId : undefined}
            className="h-11 min-w-0 rounded-lg border border-slate-300 bg-white px-4 text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-2 focus:outline-brand-600 sm:flex-1 dark:border-slate-600 dark:focus:border-brand-300 dark:focus:outline-brand-300 dark:bg-slate-950 dark:text-white dark:placeholder:text-slate-400"
          />
          <button type="submit" aria-disabled={submitting || undefined} className={buttonClass("primary", "md", "shrink-0")}>
            {submitting ? newsletter.submitting : newsletter.submit}
          </button>
        </form>
        <FormNote id={noteId} note={note} className="mx-auto mt-3 max-w-md" />
        <CaptchaBox captcha={captcha} missing={captchaMissing} className="mx-auto mt-3 flex max-w-md justify-center" />
      </div>
    </section>
  );
}

import { useId } from "react";
import { comingSoonCopy } from "~/content/products";
import { buttonClass } from "~/components/ui/button";
import { joinWaitlist, waitlistAction } from "~/lib/signup";
import { useSignupForm } from "~/lib/use-signup-form";
import { CaptchaBox } from "~/lib/captcha";
import { FormNote } from "~/components/ui/form-note";

const copy = comingSoonCopy.form;

/**
 * WaitlistForm signs an email address up for a coming-soon product. The
 * browser validates the address (required, type=email). While the sign-up
 * runs the button reads 'Subscribing...' and is disabled (aria-disabled: focus
 * stays on it); on success a toast confirms and the field is cleared; on
 * failure an error toast shows the reason and the field keeps what was typed;
 * the outcome stays under the field until the visitor types again. Before the island hydrates (or
 * without JavaScript) the form posts natively to the function, which answers
 * with the product's confirmation page.
 */
export function WaitlistForm({ productId, productName }: { productId: string; productName: string }) {
  const hintId = useId();
  const noteId = useId();
  const { email, setEmail, pending, onSubmit, onInput, note, captcha, captchaMissing, inputId } = useSignupForm((address, token) => joinWaitlist(address, productId, token), {
    success: copy.success(productName),
    errorTitle: copy.errorTitle,
    errorFallback: copy.errorFallback,
  });

  return (
    <form method="post" action={waitlistAction} onSubmit={onSubmit} onInput={onInput} className="mx-auto w-full max-w-lg">
      <input type="hidden" name="productId" value={productId} />
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-900 dark:text-white">
        {copy.label}
      </label>
      <div className="mt-2 flex flex-col gap-3 sm:flex-row">
        <input
          id={inputId}
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder={copy.placeholder}
          aria-describedby={note ? `${noteId} ${hintId}` : hintId}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className="h-11 min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-slate-900 placeholder:text-slate-500 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-slate-600 dark:bg-slate-950 dark:text-white dark:placeholder:text-slate-400 dark:focus-visible:outline-brand-300 sm:flex-1"
        />
        <button type="submit" aria-disabled={pending || undefined} className={buttonClass("primary", "md", "shrink-0")}>
          {pending ? copy.submitting : copy.submit}
        </button>
      </div>
      <FormNote id={noteId} note={note} className="mt-2" />
      <CaptchaBox captcha={captcha} missing={captchaMissing} className="mt-3" />
      <p id={hintId} className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        {copy.privacy}
      </p>
    </form>
  );
}

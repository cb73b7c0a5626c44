import { useEffect, useId, useState, type FormEvent } from "react";
import { useCaptcha } from "~/lib/captcha";
import { earlyValue } from "~/lib/early-input";
import { useKeepTyped } from "~/lib/keep-typed";
import { toast, type ToastInput } from "~/components/ui/toast";
import { noteText, type FormNoteData } from "~/components/ui/form-note";

export type SignupCopy = {
  readonly success: ToastInput;
  readonly errorTitle: string;
  readonly errorFallback: string;
};

/**
 * useSignupForm is the behaviour the email sign-up forms share (newsletter,
 * waitlists; docs/requirements.md#sign-up-forms): idle → pending ('Subscribing...',
 * aria-disabled, so that focus stays on the button) → a success toast and the
 * field cleared, or an error toast with the server's message and the field
 * kept; either way the outcome stays under the form (note, for a FormNote)
 * until the visitor types again. The form is a real one (method
 * post, its action the function): before the island hydrates it posts
 * natively, and an address typed before then is the island's first state
 * (lib/early-input.ts). Give the email field inputId, the form onInput, and
 * show a CaptchaBox of captcha (lib/captcha.tsx) in it.
 */
export function useSignupForm(submit: (email: string, captchaToken?: string) => Promise<void>, copy: SignupCopy) {
  const inputId = useId();
  const [email, setEmail] = useState(() => earlyValue(inputId) ?? "");
  useKeepTyped([inputId], (_, text) => setEmail(text));
  const [pending, setPending] = useState(false);
  const captcha = useCaptcha();
  const [captchaMissing, setCaptchaMissing] = useState(false);
  const [note, setNote] = useState<FormNoteData | null>(null);
  // Typed before the island ran: the visitor has started filling the form in.
  useEffect(() => {
    if (email !== "") captcha.start();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, with the first render's value
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    if (captcha.required && !captcha.token) {
      captcha.start();
      setCaptchaMissing(true);
      return;
    }
    setCaptchaMissing(false);
    setNote(null);
    setPending(true);
    try {
      await submit(email.trim(), captcha.required ? captcha.token : undefined);
      toast(copy.success);
      setNote({ tone: "success", text: noteText(copy.success.title, copy.success.description) });
      setEmail("");
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : copy.errorFallback;
      toast({ title: copy.errorTitle, description: message, variant: "destructive" });
      setNote({ tone: "error", text: noteText(copy.errorTitle, message) });
    } finally {
      if (captcha.required) captcha.reset(); // a token works once
      setPending(false);
    }
  }

  // Give the form onInput: the widget loads when the visitor starts filling it in, and the last outcome goes.
  const onInput = () => {
    captcha.start();
    setNote(null);
  };
  return { inputId, email, setEmail, pending, onSubmit, onInput, note, captcha, captchaMissing: captchaMissing && !captcha.token };
}

import { useId, useState, type FormEvent } from "react";
import { earlyValue } from "~/lib/early-input";
import { toast, type ToastInput } from "~/components/ui/toast";

export type SignupCopy = {
  readonly success: ToastInput;
  readonly errorTitle: string;
  readonly errorFallback: string;
};

/**
 * useSignupForm is the behaviour the email sign-up forms share (newsletter,
 * waitlists; docs/requirements.md#sign-up-forms): idle → pending ('Subscribing...',
 * disabled) → a success toast and the field cleared, or an error toast with
 * the server's message and the field kept. The form is a real one (method
 * post, its action the function): before the island hydrates it posts
 * natively, and an address typed before then is the island's first state
 * (lib/early-input.ts). Give the email field inputId.
 */
export function useSignupForm(submit: (email: string) => Promise<void>, copy: SignupCopy) {
  const inputId = useId();
  const [email, setEmail] = useState(() => earlyValue(inputId) ?? "");
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    try {
      await submit(email.trim());
      toast(copy.success);
      setEmail("");
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : copy.errorFallback;
      toast({ title: copy.errorTitle, description: message, variant: "destructive" });
    } finally {
      setPending(false);
    }
  }

  return { inputId, email, setEmail, pending, onSubmit };
}

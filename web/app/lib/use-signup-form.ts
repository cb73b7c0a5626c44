import { useEffect, useRef, useState, type FormEvent } from "react";
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
 * natively, and an address typed before then is taken over (formRef).
 */
export function useSignupForm(submit: (email: string) => Promise<void>, copy: SignupCopy) {
  const [email, setEmail] = useState("");
  const [pending, setPending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    const typed = (formRef.current?.elements.namedItem("email") as HTMLInputElement | null)?.value;
    if (typed) setEmail(typed);
  }, []);

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

  return { email, setEmail, pending, onSubmit, formRef };
}

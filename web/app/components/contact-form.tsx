import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { CheckCircle2 } from "lucide-react";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { FormNote, noteText, type FormNoteData } from "~/components/ui/form-note";
import { contactForm } from "~/content/contact";
import { FUNCTIONS_BASE, FunctionError, invokeFunction, newIdempotencyKey } from "~/lib/functions";
import { earlyValue } from "~/lib/early-input";
import { useKeepTyped } from "~/lib/keep-typed";
import { useHydrated } from "~/lib/hydrated";
import { CaptchaBox, useCaptcha } from "~/lib/captcha";
import { contactRules, honeypotField, validate, type FieldErrors } from "~/lib/validation";

type FieldName = keyof typeof contactForm.fields;
type FormValues = Record<FieldName, string>;

const emptyForm: FormValues = { name: "", email: "", company: "", phone: "", message: "" };
const fieldOrder: readonly FieldName[] = ["name", "email", "company", "phone", "message"];
const requiredFields = new Set(contactRules.filter((r) => r.required).map((r) => r.field));

/** ContactPanel is the contact page's island: the form, and after a message is sent, the confirmation. */
export function ContactPanel() {
  const [sent, setSent] = useState(false);
  return sent ? <Received onAgain={() => setSent(false)} /> : <ContactForm onSent={() => setSent(true)} />;
}

/** earlyForm is the form as the visitor left it before the island ran: empty fields but what was typed. */
function earlyForm(id: string): FormValues {
  return Object.fromEntries(fieldOrder.map((f) => [f, earlyValue(fieldId(id, f)) ?? emptyForm[f]])) as FormValues;
}

const fieldId = (id: string, field: FieldName) => `${id}-${field}`;

/**
 * ContactForm checks the fields with the shared rules before sending, and
 * shows the server's messages at the fields too. What the visitor typed is
 * kept on failure.
 */
function ContactForm({ onSent }: { onSent: () => void }) {
  const id = useId();
  // What was typed before this island ran stays: its first render takes it (lib/early-input.ts).
  const [values, setValues] = useState<FormValues>(() => earlyForm(id));
  useKeepTyped(
    fieldOrder.map((f) => fieldId(id, f)),
    (typedId, text) => setValues((v) => ({ ...v, [typedId.slice(id.length + 1)]: text })),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  // A failed send's reason stays by the button after its toast has gone, until the form is changed.
  const [note, setNote] = useState<FormNoteData | null>(null);
  const noteId = `${id}-outcome`;
  const honeypot = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // One key per message: sending it again unchanged (after a failure whose answer was lost) cannot store it twice.
  const messageKey = useRef<string | undefined>(undefined);
  const hydrated = useHydrated();
  const captcha = useCaptcha();
  const [captchaMissing, setCaptchaMissing] = useState(false);
  // Typed before the island ran: the visitor has started filling the form in.
  useEffect(() => {
    if (fieldOrder.some((f) => values[f] !== "")) captcha.start();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, with the first render's values
  }, []);

  function focusFirstError(errs: FieldErrors) {
    const first = fieldOrder.find((f) => errs[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  function update(field: FieldName, value: string) {
    messageKey.current = undefined;
    setNote(null);
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) {
      // Re-check the field as it is corrected, so the message leaves at once.
      const { errors: now } = validate({ [field]: value }, contactRules.filter((r) => r.field === field));
      setErrors((e) => {
        const next = { ...e };
        if (now[field]) next[field] = now[field];
        else delete next[field];
        return next;
      });
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const checked = validate(values, contactRules);
    setErrors(checked.errors);
    if (Object.keys(checked.errors).length > 0) {
      focusFirstError(checked.errors);
      return;
    }
    if (captcha.required && !captcha.token) {
      captcha.start();
      setCaptchaMissing(true);
      return;
    }
    setCaptchaMissing(false);
    setNote(null);
    setSubmitting(true);
    messageKey.current ??= newIdempotencyKey();
    try {
      const v = checked.values;
      await invokeFunction("submit-contact", {
        name: v.name,
        email: v.email,
        company: v.company,
        phone: v.phone,
        message: v.message,
        [honeypotField]: honeypot.current?.value ?? "",
        ...(captcha.required ? { captcha_token: captcha.token } : {}),
      }, { idempotencyKey: messageKey.current });
      messageKey.current = undefined;
      toast({ title: contactForm.success.toastTitle, description: contactForm.success.toastDescription });
      setValues(emptyForm);
      onSent();
    } catch (err) {
      const fe = err instanceof FunctionError ? err : undefined;
      const description = fe?.fromServer ? fe.message : contactForm.error.fallback;
      toast({ title: contactForm.error.toastTitle, description, variant: "destructive" });
      setNote({ tone: "error", text: noteText(contactForm.error.toastTitle, description) });
      if (fe && Object.keys(fe.fields).length > 0) setErrors(fe.fields);
    } finally {
      if (captcha.required) captcha.reset(); // a token works once
      setSubmitting(false);
    }
  }

  const fieldProps = (field: FieldName) => {
    const error = errors[field];
    return {
      id: fieldId(id, field),
      name: field,
      value: values[field],
      required: requiredFields.has(field),
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? `${id}-${field}-error` : undefined,
      placeholder: contactForm.fields[field].placeholder,
      // Not disabled: focus stays where the visitor is while the message is sent.
      readOnly: submitting,
      className: inputClass(Boolean(error)),
    };
  };

  return (
    <>
      <h2 className="text-2xl font-bold text-slate-900 dark:text-white">{contactForm.title}</h2>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{contactForm.requiredNote}</p>
      {/* A real form: without JavaScript the browser checks it and posts it to the function, which answers
          with the confirmation page. Once hydrated (noValidate), the shared rules check the fields and show
          the messages of docs/requirements.md#contact-form, and the message is sent as JSON. */}
      <form
        ref={formRef}
        method="post"
        action={`${FUNCTIONS_BASE}/submit-contact`}
        noValidate={hydrated}
        onSubmit={onSubmit}
        onInput={captcha.start}
        className="mt-6 grid gap-5 sm:grid-cols-2"
        aria-busy={submitting}
      >
        <Field id={id} field="name" error={errors.name}>
          <input type="text" autoComplete={contactForm.fields.name.autoComplete} {...fieldProps("name")} onChange={(e) => update("name", e.target.value)} />
        </Field>
        <Field id={id} field="email" error={errors.email}>
          <input type="email" autoComplete={contactForm.fields.email.autoComplete} {...fieldProps("email")} onChange={(e) => update("email", e.target.value)} />
        </Field>
        <Field id={id} field="company" error={errors.company}>
          <input type="text" autoComplete={contactForm.fields.company.autoComplete} {...fieldProps("company")} onChange={(e) => update("company", e.target.value)} />
        </Field>
        <Field id={id} field="phone" error={errors.phone}>
          <input type="tel" autoComplete={contactForm.fields.phone.autoComplete} {...fieldProps("phone")} onChange={(e) => update("phone", e.target.value)} />
        </Field>
        <Field id={id} field="message" error={errors.message} wide>
          <textarea rows={contactForm.fields.message.rows} {...fieldProps("message")} onChange={(e) => update("message", e.target.value)} />
        </Field>
        {/* The honeypot: off screen, out of the tab order and hidden from assistive technology. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label htmlFor={`${id}-${honeypotField}`}>{contactForm.honeypotLabel}</label>
          <input ref={honeypot} id={`${id}-${honeypotField}`} name={honeypotField} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <CaptchaBox captcha={captcha} missing={captchaMissing && !captcha.token} className="sm:col-span-2" />
        <div className="sm:col-span-2">
          <button
            type="submit"
            aria-disabled={submitting || undefined}
            aria-describedby={note ? noteId : undefined}
            className={buttonClass("primary", "lg", "w-full sm:w-auto")}
          >
            {submitting ? contactForm.submitting : contactForm.submit}
          </button>
          <FormNote id={noteId} note={note} className="mt-3" />
        </div>
      </form>
    </>
  );
}

function inputClass(invalid: boolean): string {
  return [
    "mt-1.5 block w-full rounded-lg border bg-white px-3.5 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500",
    "focus:outline-2 focus:outline-offset-0 read-only:opacity-60 dark:bg-slate-950 dark:text-white dark:placeholder:text-slate-400",
    invalid
      ? "border-red-600 focus:outline-red-600 dark:border-red-400"
      : "border-slate-300 focus:outline-brand-600 dark:border-slate-700 dark:focus:outline-brand-300",
  ].join(" ");
}

function Field({ id, field, error, wide, children }: { id: string; field: FieldName; error?: string; wide?: boolean; children: ReactNode }) {
  const copy = contactForm.fields[field];
  const required = requiredFields.has(field);
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <label htmlFor={fieldId(id, field)} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {copy.label}
        {required ? (
          <span aria-hidden="true" className="ml-0.5 text-red-600 dark:text-red-400">
            *
          </span>
        ) : (
          <>
            {" "}
            <span className="font-normal text-slate-500 dark:text-slate-400">{contactForm.optional}</span>
          </>
        )}
      </label>
      {children}
      {error && (
        <p id={`${id}-${field}-error`} className="mt-1.5 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Received is the confirmation that replaces the form. On the contact page
 * its button brings the form back; on /contact/sent (where a form posted
 * without JavaScript lands) it is a link to the contact page.
 */
export function Received({ onAgain }: { onAgain?: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form is gone: move focus to what replaced it (not on a page of its own).
  useEffect(() => {
    if (onAgain) heading.current?.focus();
  }, [onAgain]);
  return (
    <div className="py-8 text-center">
      <CheckCircle2 aria-hidden="true" className="mx-auto size-14 text-emerald-600 dark:text-emerald-400" />
      <h2 ref={heading} tabIndex={-1} className="mt-4 focus:outline-none text-2xl font-bold text-slate-900 dark:text-white">
        {contactForm.success.title}
      </h2>
      <p className="mx-auto mt-3 max-w-md text-slate-600 dark:text-slate-300">{contactForm.success.text}</p>
      {onAgain ? (
        <button type="button" onClick={onAgain} className={buttonClass("secondary", "md", "mt-8")}>
          {contactForm.success.again}
        </button>
      ) : (
        <a href={contactForm.success.againHref} className={buttonClass("secondary", "md", "mt-8")}>
          {contactForm.success.again}
        </a>
      )}
    </div>
  );
}


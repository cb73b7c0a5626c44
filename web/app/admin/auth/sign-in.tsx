/**
 * Sign-in by e-mail code: the address, then "check your mail" and the
 * 6-digit code (signInWithOtp, verifyOtp). The link in the same mail signs in
 * too (console-app verifies its token_hash). The last address is kept, so a
 * person whose session ended finds it filled in. When the server offers
 * identity providers, "Sign in with NAME" and "Single sign-on" (the address's
 * domain picks the provider) go there instead. When the server needs a
 * CAPTCHA, each screen shows its widget, and sending a code, checking it and
 * starting single sign-on each take a fresh token (captcha-check.tsx).
 */
import { useEffect, useState, type FormEvent } from "react";
import type { SupabaseClient } from "@supabase/supabase-js";
import { signInCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { AuthCard, CodeField, FieldError, Notice, inputClass, isCode } from "./auth-card";
import { authErrorText, signInErrorText } from "./auth-errors";
import { CONSOLE_ROOT } from "../route";
import { consoleReturnURL, pkceTwin, signInOptions, type SignInOptions } from "./federated";
import { CaptchaCheck, useSignInCaptcha, withCaptcha } from "./captcha-check";

const EMAIL_KEY = "studio-console-email";

export function rememberEmail(email: string): void {
  try {
    localStorage.setItem(EMAIL_KEY, email);
  } catch {
    // storage refused (private mode): the address is typed again next time
  }
}

export function rememberedEmail(): string {
  try {
    return localStorage.getItem(EMAIL_KEY) ?? "";
  } catch {
    return "";
  }
}

/** A provider's button: a long provider name wraps inside it, the button growing, rather than crowding its border. */
export const providerButtonClass = buttonClass("secondary", "md", "h-auto! min-h-11 w-full py-2 text-center [overflow-wrap:anywhere]");

const validEmail = (address: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address);

export type SignInNotice = "expired" | "badLink" | { provider: string };

export function SignIn({ client, notice }: { client: SupabaseClient; notice?: SignInNotice }) {
  const [step, setStep] = useState<"email" | "code" | "sso">("email");
  const [options, setOptions] = useState<SignInOptions>({ providers: [], sso: false });
  useEffect(() => {
    void signInOptions(client).then(setOptions);
  }, [client]);
  const [email, setEmail] = useState(rememberedEmail);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [info, setInfo] = useState<string>();
  const check = useSignInCaptcha();

  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    const address = email.trim().toLowerCase();
    if (!validEmail(address)) {
      setError(signInCopy.errors.email);
      return;
    }
    setError(undefined);
    const captcha = check.take();
    if (!captcha) return;
    setBusy(true);
    const { error: err } = await client.auth.signInWithOtp(
      withCaptcha({ email: address, options: { shouldCreateUser: false, emailRedirectTo: location.origin + CONSOLE_ROOT } }, captcha.token),
    );
    check.used();
    setBusy(false);
    // One mail per address a minute: after a 429 the code mailed just before still works.
    const recentlySent = err?.status === 429;
    if (err && !recentlySent) {
      setError(signInErrorText(err, err.message));
      return;
    }
    rememberEmail(address);
    setEmail(address);
    setError(undefined);
    setInfo(recentlySent ? signInCopy.recentlySent : step === "code" ? signInCopy.resent : undefined);
    setStep("code");
  };

  const verify = async (e: FormEvent) => {
    e.preventDefault();
    if (!isCode(code)) {
      setError(signInCopy.errors.code);
      return;
    }
    setError(undefined);
    const captcha = check.take();
    if (!captcha) return;
    setBusy(true);
    const { error: err } = await client.auth.verifyOtp(withCaptcha({ email, token: code, type: "email" as const }, captcha.token));
    check.used();
    setBusy(false);
    if (err) setError(signInErrorText(err, signInCopy.errors.wrongCode));
    // On success the client emits SIGNED_IN, and the console takes over.
  };

  const startProvider = async (provider: string) => {
    setBusy(true);
    setError(undefined);
    setInfo(signInCopy.redirecting);
    const { error: err } = await pkceTwin(client).auth.signInWithOAuth({ provider: provider as never, options: { redirectTo: consoleReturnURL() } });
    // On success the browser is on its way to the provider.
    if (err) {
      setBusy(false);
      setInfo(undefined);
      setError(authErrorText(err, err.message));
    }
  };

  const startSSO = async (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim().toLowerCase();
    const domain = address.split("@")[1];
    if (!validEmail(address) || !domain) {
      setError(signInCopy.errors.email);
      return;
    }
    setError(undefined);
    const captcha = check.take();
    if (!captcha) return;
    setBusy(true);
    rememberEmail(address);
    const { error: err } = await pkceTwin(client).auth.signInWithSSO(withCaptcha({ domain, options: { redirectTo: consoleReturnURL() } }, captcha.token));
    check.used();
    if (err) {
      setBusy(false);
      setError(err.status === 404 ? signInCopy.sso.notFound : signInErrorText(err, err.message));
    }
  };

  if (step === "sso") {
    return (
      <AuthCard title={signInCopy.sso.title}>
        <p className="text-sm text-slate-600 dark:text-slate-300">{signInCopy.sso.intro}</p>
        <form onSubmit={startSSO} noValidate className="flex flex-col gap-4">
          <EmailField id="sso-email" value={email} onChange={setEmail} error={error} />
          <CaptchaCheck check={check} />
          <button type="submit" disabled={busy} className={buttonClass("primary", "md", "w-full")}>
            {busy ? signInCopy.redirecting : signInCopy.sso.submit}
          </button>
        </form>
        <button
          type="button"
          className={buttonClass("ghost", "sm", "self-start")}
          onClick={() => {
            setStep("email");
            setError(undefined);
          }}
        >
          {signInCopy.sso.back}
        </button>
      </AuthCard>
    );
  }

  if (step === "email") {
    return (
      <AuthCard title={signInCopy.title} documentTitle={signInCopy.documentTitle}>
        {notice === "expired" && <Notice>{signInCopy.expired}</Notice>}
        {notice === "badLink" && <Notice tone="problem">{signInCopy.errors.badLink}</Notice>}
        {typeof notice === "object" && <Notice tone="problem">{signInCopy.errors.provider(notice.provider)}</Notice>}
        <p className="text-sm text-slate-600 dark:text-slate-300">{signInCopy.intro}</p>
        <form onSubmit={send} noValidate className="flex flex-col gap-4">
          <EmailField id="sign-in-email" value={email} onChange={setEmail} error={error} />
          <CaptchaCheck check={check} />
          <button type="submit" disabled={busy} className={buttonClass("primary", "md", "w-full")}>
            {busy ? signInCopy.sending : signInCopy.send}
          </button>
        </form>
        {(options.providers.length > 0 || options.sso) && (
          <div className="flex flex-col gap-3" data-testid="sign-in-providers">
            <p className="flex items-center gap-3 text-sm text-slate-600 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200 dark:text-slate-400 dark:before:bg-slate-700 dark:after:bg-slate-700">
              {signInCopy.or}
            </p>
            {info && <Notice>{info}</Notice>}
            {options.providers.map((name) => (
              <button key={name} type="button" disabled={busy} className={providerButtonClass} onClick={() => void startProvider(name)}>
                {signInCopy.withProvider(name)}
              </button>
            ))}
            {options.sso && (
              <button
                type="button"
                disabled={busy}
                className={providerButtonClass}
                onClick={() => {
                  setStep("sso");
                  setError(undefined);
                  setInfo(undefined);
                }}
              >
                {signInCopy.sso.start}
              </button>
            )}
          </div>
        )}
      </AuthCard>
    );
  }
  return (
    <AuthCard title={signInCopy.checkMail.title}>
      <p className="text-sm text-slate-600 dark:text-slate-300">{signInCopy.checkMail.text(email)}</p>
      {info && <Notice>{info}</Notice>}
      <form onSubmit={verify} noValidate className="flex flex-col gap-4">
        <CodeField id="sign-in-code" label={signInCopy.codeLabel} value={code} onChange={setCode} error={error} autoFocus />
        <CaptchaCheck check={check} />
        <button type="submit" disabled={busy} className={buttonClass("primary", "md", "w-full")}>
          {busy ? signInCopy.verifying : signInCopy.verify}
        </button>
      </form>
      <div className="flex flex-wrap justify-between gap-2">
        <button
          type="button"
          className={buttonClass("ghost", "sm")}
          onClick={() => {
            setStep("email");
            setCode("");
            setError(undefined);
            setInfo(undefined);
          }}
        >
          {signInCopy.otherAddress}
        </button>
        <button type="button" className={buttonClass("ghost", "sm")} disabled={busy} onClick={() => void send()}>
          {signInCopy.resend}
        </button>
      </div>
    </AuthCard>
  );
}

/** EmailField is the work address, with its error: the first step of the code and of single sign-on. */
function EmailField({ id, value, onChange, error }: { id: string; value: string; onChange: (v: string) => void; error?: string }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {signInCopy.emailLabel}
      </label>
      <input
        id={id}
        type="email"
        name="email"
        autoComplete="email"
        required
        autoFocus
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass}
      />
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

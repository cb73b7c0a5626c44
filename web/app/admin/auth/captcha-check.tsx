/**
 * The CAPTCHA of the console's sign-in. With a provider set on the server
 * (--captcha-provider), /admin's head names the widget (internal/site/captcha.go),
 * and every call that sends or checks an e-mail code (signInWithOtp,
 * verifyOtp, signInWithSSO) needs a token of it as options.captchaToken. The
 * server has each token verified once, so each call takes a fresh one: the
 * widget is reset after every call. The widget is the public forms' one
 * (lib/captcha.tsx), loaded as soon as a screen that needs it shows.
 */
import { useEffect, useState } from "react";
import type { SupabaseClient } from "@supabase/supabase-js";
import { signInCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { useCaptcha } from "~/lib/captcha";
import { AuthCard, Notice } from "./auth-card";
import type { LinkToken } from "./link-token";

/**
 * withCaptcha adds a CAPTCHA token to the parameters of a supabase-js
 * sign-in call (options.captchaToken); without a token they stay as they are.
 */
export function withCaptcha<T extends object>(params: T, token: string | undefined): T {
  if (!token) return params;
  const { options } = params as { options?: object };
  return { ...params, options: { ...options, captchaToken: token } };
}

/**
 * nextToken is what the next call sends: {} when the server needs no
 * CAPTCHA, the widget's token when it does, or null when the person has not
 * passed the check yet (then nothing may be sent).
 */
export function nextToken(required: boolean, token: string): { token?: string } | null {
  if (!required) return {};
  return token ? { token } : null;
}

/**
 * useSignInCaptcha is a sign-in screen's check: take() before a call gives
 * its token ({} when none is needed), or null when the check is not passed
 * yet (then CaptchaCheck says so and nothing may be sent); used() after the
 * call resets the widget, as its token is spent.
 */
export function useSignInCaptcha() {
  const captcha = useCaptcha();
  const [missing, setMissing] = useState(false);
  const { start } = captcha;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once: unlike the public forms, the sign-in shows the widget at once
  useEffect(() => start(), []);
  return {
    captcha,
    missing: missing && !captcha.token,
    take(): { token?: string } | null {
      const next = nextToken(captcha.required, captcha.token);
      setMissing(next === null);
      return next;
    },
    used() {
      if (captcha.required) captcha.reset();
    },
  };
}

export type SignInCaptcha = ReturnType<typeof useSignInCaptcha>;

/**
 * CaptchaCheck shows the widget when the server needs one, and its state:
 * loading, not passed yet (after a try to send), or its script could not
 * load (then no code can be sent).
 */
export function CaptchaCheck({ check }: { check: SignInCaptcha }) {
  const { captcha, missing } = check;
  if (!captcha.required) return null;
  const problem = captcha.failed ? signInCopy.captcha.failed : missing ? signInCopy.captcha.missing : undefined;
  return (
    <div className="flex flex-col gap-1.5" data-testid="captcha-check">
      <div ref={captcha.box} data-captcha-widget="" />
      {!captcha.shown && !captcha.failed && (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
          {signInCopy.captcha.loading}
        </p>
      )}
      {problem && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
    </div>
  );
}

/**
 * ConfirmLink is the step a mailed sign-in link goes through when the
 * sign-in needs a CAPTCHA: its verifyOtp (POST /verify) needs a token too,
 * so the person passes the check, then signs in. A refused token leaves the
 * link usable (the server checks the token before the link), and the screen
 * asks for the check again; any other failure ends the link: onDone(false).
 * onDone(true) once signed in; onCancel drops the link.
 */
export function ConfirmLink({ client, link, onDone, onCancel }: { client: SupabaseClient; link: LinkToken; onDone: (ok: boolean) => void; onCancel: () => void }) {
  const check = useSignInCaptcha();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const confirm = async () => {
    const captcha = check.take();
    if (!captcha) return;
    setBusy(true);
    setError(undefined);
    const { error: err } = await client.auth.verifyOtp(withCaptcha(link, captcha.token));
    check.used();
    setBusy(false);
    if (err?.code === "captcha_failed") setError(signInCopy.captcha.refused);
    else onDone(!err);
  };

  return (
    <AuthCard title={signInCopy.confirmLink.title}>
      <p className="text-sm text-slate-600 dark:text-slate-300">{signInCopy.confirmLink.text}</p>
      {error && <Notice tone="problem">{error}</Notice>}
      <CaptchaCheck check={check} />
      <button type="button" disabled={busy} className={buttonClass("primary", "md", "w-full")} onClick={() => void confirm()}>
        {busy ? signInCopy.verifying : signInCopy.confirmLink.submit}
      </button>
      <button type="button" className={buttonClass("ghost", "sm", "self-start")} onClick={onCancel}>
        {signInCopy.confirmLink.other}
      </button>
    </AuthCard>
  );
}

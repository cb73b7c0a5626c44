/**
 * The two-step screens: the TOTP check after the e-mail code for someone
 * with a verified factor (mfa.challengeAndVerify), and the set-up that a
 * server with --require-mfa asks of staff who have none.
 */
import { useEffect, useState, type FormEvent } from "react";
import type { SupabaseClient } from "@supabase/supabase-js";
import { mfaCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { AuthCard, CodeField, Notice } from "./auth-card";
import { authErrorText } from "./sign-in";
import { TotpEnrol } from "./totp-enrol";

export function TwoStepCheck({ client, onSignOut }: { client: SupabaseClient; onSignOut: () => void }) {
  const [factorId, setFactorId] = useState<string | null | undefined>(undefined);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    void client.auth.mfa.listFactors().then(({ data }) => setFactorId(data?.totp.find((f) => f.status === "verified")?.id ?? null));
  }, [client]);
  const verify = async (e: FormEvent) => {
    e.preventDefault();
    if (!factorId) return;
    if (!/^\d{6}$/.test(code)) {
      setError(mfaCopy.wrongCode);
      return;
    }
    setBusy(true);
    setError(undefined);
    const { error: err } = await client.auth.mfa.challengeAndVerify({ factorId, code });
    setBusy(false);
    if (err) {
      setCode("");
      setError(authErrorText(err, mfaCopy.wrongCode));
    }
    // On success the client emits MFA_CHALLENGE_VERIFIED with the aal2 session.
  };
  return (
    <AuthCard title={mfaCopy.title}>
      <p className="text-sm text-slate-600 dark:text-slate-300">{mfaCopy.intro}</p>
      {factorId === null && <Notice tone="problem">{mfaCopy.noFactor}</Notice>}
      <form onSubmit={verify} noValidate className="flex flex-col gap-4">
        <CodeField id="totp-code" label={mfaCopy.codeLabel} value={code} onChange={setCode} error={error} autoFocus />
        <button type="submit" disabled={busy || !factorId} className={buttonClass("primary", "md", "w-full")}>
          {busy ? mfaCopy.verifying : mfaCopy.verify}
        </button>
      </form>
      <button type="button" className={buttonClass("ghost", "sm", "self-start")} onClick={onSignOut}>
        {mfaCopy.signOut}
      </button>
    </AuthCard>
  );
}

export function EnrolFirst({ client, onSignOut }: { client: SupabaseClient; onSignOut: () => void }) {
  return (
    <AuthCard title={mfaCopy.enrolFirst.title}>
      <p className="text-sm text-slate-600 dark:text-slate-300">{mfaCopy.enrolFirst.text}</p>
      <TotpEnrol client={client} startAtOnce />
      <button type="button" className={buttonClass("ghost", "sm", "self-start")} onClick={onSignOut}>
        {mfaCopy.signOut}
      </button>
    </AuthCard>
  );
}

/**
 * The two-step screens: the check after the e-mail code for someone with a
 * verified factor (a passkey, mfa.challenge and the browser's
 * navigator.credentials.get, or a TOTP code, mfa.challengeAndVerify), and
 * the set-up that a server with --require-mfa asks of staff who have none.
 */
import { useEffect, useState, type FormEvent } from "react";
import { FingerprintPattern } from "lucide-react";
import type { Factor, SupabaseClient } from "@supabase/supabase-js";
import { mfaCopy, passkeyCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { AuthCard, CodeField, Notice, isCode } from "./auth-card";
import { PasskeyAdd, confirmWithPasskey, passkeysSupported } from "./passkey";
import { authErrorText } from "./auth-errors";
import { TotpEnrol } from "./totp-enrol";

/** The person's verified factors, as the check offers them (passkeys only where the browser can use them). */
type Offered = { totp?: string; passkeys: Factor[]; passkeysUnusable: boolean };

export function TwoStepCheck({ client, onSignOut }: { client: SupabaseClient; onSignOut: () => void }) {
  const [offered, setOffered] = useState<Offered>();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [passkeyBusy, setPasskeyBusy] = useState<string>();
  const [passkeyError, setPasskeyError] = useState<string>();
  useEffect(() => {
    void client.auth.mfa.listFactors().then(({ data }) => {
      const passkeys = data?.webauthn ?? [];
      const usable = passkeysSupported();
      setOffered({ totp: data?.totp.find((f) => f.status === "verified")?.id, passkeys: usable ? passkeys : [], passkeysUnusable: !usable && passkeys.length > 0 });
    });
  }, [client]);
  const factorId = offered?.totp;
  const passkeys = offered?.passkeys ?? [];
  const verify = async (e: FormEvent) => {
    e.preventDefault();
    if (!factorId) return;
    if (!isCode(code)) {
      setError(mfaCopy.codeLength);
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
  const passWithPasskey = async (id: string) => {
    setPasskeyBusy(id);
    setPasskeyError(undefined);
    const failed = await confirmWithPasskey(client, id);
    setPasskeyBusy(undefined);
    if (failed) setPasskeyError(failed);
  };
  return (
    <AuthCard title={mfaCopy.title}>
      <p className="text-sm text-slate-600 dark:text-slate-300">{passkeys.length > 0 ? mfaCopy.passkey.intro : mfaCopy.intro}</p>
      {offered?.passkeysUnusable && <Notice tone="problem">{passkeyCopy.errors.unsupported}</Notice>}
      {offered && !factorId && passkeys.length === 0 && !offered.passkeysUnusable && <Notice tone="problem">{mfaCopy.noFactor}</Notice>}
      {passkeys.length > 0 && (
        <div className="flex flex-col gap-3" aria-busy={passkeyBusy ? true : undefined}>
          {passkeyError && <Notice tone="problem">{passkeyError}</Notice>}
          {passkeys.map((f) => (
            <button key={f.id} type="button" disabled={passkeyBusy !== undefined} onClick={() => void passWithPasskey(f.id)} className={buttonClass("primary", "md", "w-full")}>
              <FingerprintPattern aria-hidden="true" className="size-4" />
              {passkeyBusy === f.id ? mfaCopy.passkey.waiting : mfaCopy.passkey.use(passkeys.length > 1 ? f.friendly_name : undefined)}
            </button>
          ))}
          {passkeyBusy && (
            <p role="status" className="sr-only">
              {mfaCopy.passkey.waiting}
            </p>
          )}
          {factorId && <p className="text-sm text-slate-600 dark:text-slate-300">{mfaCopy.passkey.orCode}</p>}
        </div>
      )}
      {(factorId || passkeys.length === 0) && (
        <form onSubmit={verify} noValidate className="flex flex-col gap-4">
          <CodeField id="totp-code" label={mfaCopy.codeLabel} value={code} onChange={setCode} error={error} autoFocus={passkeys.length === 0} />
          <button type="submit" disabled={busy || !factorId} className={buttonClass(passkeys.length > 0 ? "secondary" : "primary", "md", "w-full")}>
            {busy ? mfaCopy.verifying : mfaCopy.verify}
          </button>
        </form>
      )}
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
      {passkeysSupported() && (
        <div className="flex flex-col gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-300">{mfaCopy.enrolFirst.orPasskey}</p>
          <PasskeyAdd client={client} />
        </div>
      )}
      <button type="button" className={buttonClass("ghost", "sm", "self-start")} onClick={onSignOut}>
        {mfaCopy.signOut}
      </button>
    </AuthCard>
  );
}

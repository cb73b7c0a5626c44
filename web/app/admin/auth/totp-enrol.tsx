/**
 * TotpEnrol sets up an authenticator app: mfa.enroll gives a TOTP key, shown
 * as a QR code and as text; a code from the app confirms it
 * (mfa.challengeAndVerify), which also lifts the session to aal2.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Copy, KeyRound } from "lucide-react";
import type { SupabaseClient } from "@supabase/supabase-js";
import { accountCopy, mfaCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { CodeField, Notice, isCode } from "./auth-card";
import { authErrorText } from "./auth-errors";
import { LoadingState } from "../ui/states";

const copy = accountCopy.mfa;

/**
 * qrImageSrc makes the enrolment's qr_code safe as an <img src>: GoTrue
 * sends "data:image/svg+xml;utf-8,<svg…>" with the SVG unescaped, in which a
 * "#" would end the URL; the SVG is percent-encoded. Anything that is not an
 * SVG data URL gives no image (the key as text still works).
 */
export function qrImageSrc(qr: string | undefined): string | undefined {
  const m = qr?.match(/^data:im(?:a)?g(?:e)?\/svg\+xml(?:;[\w=-]+)*,([\s\S]*)$/);
  const body = m?.[1];
  if (!body) return undefined;
  const svg = /^\s*</.test(body) ? body : decodeURIComponent(body);
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** groupSecret spaces a base32 key in fours, as authenticator apps show and accept it. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, "").replace(/(.{4})(?=.)/g, "$1 ");
}

type Enrolment = { id: string; qr?: string; secret: string };

export function TotpEnrol({ client, startAtOnce = false, onDone, onCancel }: { client: SupabaseClient; startAtOnce?: boolean; onDone?: () => void; onCancel?: () => void }) {
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const started = useRef(false);

  const start = async () => {
    setBusy(true);
    setError(undefined);
    // A set-up left half-way (never confirmed) would block a new one with the same name.
    const { data: factors } = await client.auth.mfa.listFactors();
    for (const f of factors?.all ?? []) {
      if (f.factor_type === "totp" && f.status === "unverified") await client.auth.mfa.unenroll({ factorId: f.id });
    }
    const { data, error: err } = await client.auth.mfa.enroll({ factorType: "totp" });
    setBusy(false);
    if (err || !data) {
      setError(err ? authErrorText(err, err.message) : undefined);
      return;
    }
    setEnrolment({ id: data.id, qr: qrImageSrc(data.totp.qr_code), secret: data.totp.secret });
  };

  useEffect(() => {
    if (startAtOnce && !started.current) {
      started.current = true;
      void start();
    }
  });

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    if (!enrolment) return;
    if (!isCode(code)) {
      setError(mfaCopy.codeLength);
      return;
    }
    setBusy(true);
    setError(undefined);
    const { error: err } = await client.auth.mfa.challengeAndVerify({ factorId: enrolment.id, code });
    setBusy(false);
    if (err) {
      setCode("");
      setError(authErrorText(err, err.message));
      return;
    }
    toast({ title: copy.enrolled });
    setEnrolment(undefined);
    onDone?.();
  };

  const cancel = async () => {
    if (enrolment) await client.auth.mfa.unenroll({ factorId: enrolment.id });
    setEnrolment(undefined);
    setCode("");
    setError(undefined);
    onCancel?.();
  };

  if (!enrolment) {
    if (busy) return <LoadingState />;
    return (
      <div className="flex flex-col gap-3">
        {error && <Notice tone="problem">{error}</Notice>}
        <button type="button" onClick={start} disabled={busy} className={buttonClass("primary", "md", "self-start")}>
          <KeyRound aria-hidden="true" className="size-4" />
          {copy.start}
        </button>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4" data-testid="totp-enrolment">
      <p id="totp-enrol-scan" className="text-sm text-slate-600 dark:text-slate-300">
        {copy.scan}
      </p>
      {enrolment.qr && <img src={enrolment.qr} alt={copy.qrAlt} width={192} height={192} className="size-48 rounded-lg bg-white p-2 ring-1 ring-slate-200" />}
      <div className="flex flex-col gap-1.5">
        <p className="text-sm font-medium" id="totp-secret-label">
          {copy.secretLabel}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <code aria-labelledby="totp-secret-label" data-testid="totp-secret" className="break-words rounded-md bg-slate-100 px-2 py-1 font-mono text-sm dark:bg-slate-800">
            {groupSecret(enrolment.secret)}
          </code>
          <button
            type="button"
            className={buttonClass("ghost", "sm")}
            onClick={() => void navigator.clipboard?.writeText(enrolment.secret).then(() => toast({ title: copy.secretCopied }), () => undefined)}
          >
            <Copy aria-hidden="true" className="size-4" />
            {copy.copySecret}
          </button>
        </div>
      </div>
      <form onSubmit={confirm} noValidate className="flex flex-col gap-3">
        {/* The set-up has begun: focus goes to the code it asks for, whose description says where to get it. */}
        <CodeField id="totp-enrol-code" label={copy.codeLabel} value={code} onChange={setCode} error={error} describedBy="totp-enrol-scan" autoFocus />
        <div className="flex flex-wrap gap-2">
          <button type="submit" disabled={busy} className={buttonClass("primary", "md")}>
            {busy ? copy.confirming : copy.confirm}
          </button>
          <button type="button" onClick={cancel} className={buttonClass("ghost", "md")}>
            {copy.cancel}
          </button>
        </div>
      </form>
    </div>
  );
}

/**
 * Passkeys (WebAuthn) in the console, through supabase-js's mfa API: adding
 * one (mfa.enroll with factorType "webauthn", mfa.challenge, the browser's
 * navigator.credentials.create, mfa.verify) and confirming with one at the
 * two-step check (mfa.challenge, navigator.credentials.get, mfa.verify). The
 * console asks the browser itself, with the server's options as they are,
 * rather than through mfa.webauthn.register: that adds defaults of its own
 * (security keys only) and, when an enrolment fails, removes a verified
 * passkey of the same name.
 */
import { useState, type FormEvent } from "react";
import { FingerprintPattern } from "lucide-react";
import type { SupabaseClient } from "@supabase/supabase-js";
import { passkeyCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { FieldError, Notice, inputClass } from "./auth-card";
import { authErrorText } from "./auth-errors";

const copy = passkeyCopy;

/** The relying party the page is on, as supabase-js's own WebAuthn helpers send it (the server checks it is the site's). */
const relyingParty = () => ({ rpId: location.hostname, rpOrigins: [location.origin] });

/** passkeysSupported tells whether this browser can make and use passkeys. */
export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function" && typeof navigator.credentials?.create === "function";
}

/** A failed step of a ceremony: the browser's DOMException (name) or the server's error (status, code). */
type Failure = { name?: string; status?: number; code?: string; message?: string };

/** passkeyErrorText says what went wrong in words for the person. */
export function passkeyErrorText(f: Failure): string {
  switch (f.name) {
    case "NotAllowedError":
    case "AbortError":
      return copy.errors.cancelled;
    case "InvalidStateError":
      return copy.errors.exists;
    case "NotSupportedError":
    case "SecurityError":
      return copy.errors.unsupported;
  }
  if (f.code === "mfa_factor_name_conflict") return copy.errors.nameTaken;
  if (f.code === "insufficient_aal") return copy.errors.needsAal2;
  return authErrorText(f, copy.errors.refused);
}

/**
 * ceremony runs one challenge of the passkey factor: the server's options go
 * to the browser as they are, and its answer back to the server. It returns
 * what failed, or nothing when the session was raised to aal2.
 */
async function ceremony(client: SupabaseClient, factorId: string): Promise<Failure | undefined> {
  const { data: challenge, error } = await client.auth.mfa.challenge({ factorId, webauthn: relyingParty() });
  if (error) return error;
  if (challenge?.type !== "webauthn") return { message: "not a passkey challenge" };
  const { webauthn } = challenge;
  let credential: Credential | null;
  try {
    credential =
      webauthn.type === "create"
        ? await navigator.credentials.create({ publicKey: webauthn.credential_options.publicKey as PublicKeyCredentialCreationOptions })
        : await navigator.credentials.get({ publicKey: webauthn.credential_options.publicKey as PublicKeyCredentialRequestOptions });
  } catch (e) {
    return e instanceof Error ? e : { name: "NotAllowedError" };
  }
  if (!(credential instanceof PublicKeyCredential)) return { name: "NotAllowedError" };
  const { error: refused } = await client.auth.mfa.verify({
    factorId,
    challengeId: challenge.id,
    // supabase-js serializes the credential (its toJSON) for the server.
    webauthn: { type: webauthn.type, ...relyingParty(), credential_response: credential as never },
  });
  return refused ?? undefined;
}

/** confirmWithPasskey passes the two-step check with the passkey factor; it returns what went wrong, if anything. */
export async function confirmWithPasskey(client: SupabaseClient, factorId: string): Promise<string | undefined> {
  const failed = await ceremony(client, factorId);
  return failed && passkeyErrorText(failed);
}

/**
 * addPasskey enrols a passkey named name and registers it; it returns what
 * went wrong, if anything. A set-up left half-way (never registered) is
 * removed first, and so is this one when it fails.
 */
export async function addPasskey(client: SupabaseClient, name: string): Promise<string | undefined> {
  const { data: factors } = await client.auth.mfa.listFactors();
  for (const f of factors?.all ?? []) {
    if (f.factor_type === "webauthn" && f.status === "unverified") await client.auth.mfa.unenroll({ factorId: f.id });
  }
  const { data: factor, error } = await client.auth.mfa.enroll({ factorType: "webauthn", friendlyName: name });
  if (error || !factor) return passkeyErrorText(error ?? {});
  const failed = await ceremony(client, factor.id);
  if (!failed) return undefined;
  await client.auth.mfa.unenroll({ factorId: factor.id });
  return passkeyErrorText(failed);
}

/** PasskeyAdd is the form that adds a passkey: its name, then the browser's own dialog. */
export function PasskeyAdd({ client, onAdded }: { client: SupabaseClient; onAdded?: () => void }) {
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (!passkeysSupported()) return <Notice tone="problem">{copy.errors.unsupported}</Notice>;

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(copy.errors.name);
      return;
    }
    setBusy(true);
    setError(undefined);
    const failed = await addPasskey(client, trimmed);
    setBusy(false);
    if (failed) {
      setError(failed);
      return;
    }
    setName("");
    toast({ title: copy.added });
    onAdded?.();
  };

  return (
    <form onSubmit={add} noValidate className="flex flex-col gap-3" aria-busy={busy || undefined} data-testid="passkey-add">
      <div className="flex flex-col gap-1.5">
        <label htmlFor="passkey-name" className="text-sm font-medium">
          {copy.nameLabel}
        </label>
        <input
          id="passkey-name"
          name="passkey-name"
          autoComplete="off"
          maxLength={100}
          value={name}
          disabled={busy}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "passkey-name-hint passkey-name-error" : "passkey-name-hint"}
          className={inputClass}
        />
        <p id="passkey-name-hint" className="text-sm text-slate-600 dark:text-slate-400">
          {copy.nameHint}
        </p>
        <FieldError id="passkey-name-error" text={error} />
      </div>
      <button type="submit" disabled={busy} className={buttonClass("primary", "md", "self-start")}>
        <FingerprintPattern aria-hidden="true" className="size-4" />
        {busy ? copy.adding : copy.add}
      </button>
      {busy && (
        <p role="status" className="sr-only">
          {copy.adding}
        </p>
      )}
    </form>
  );
}

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
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { FingerprintPattern, Trash2 } from "lucide-react";
import type { Factor, SupabaseClient } from "@supabase/supabase-js";
import { accountCopy, passkeyCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { FieldError, Notice, inputClass } from "./auth-card";
import { useConsole } from "./console-context";
import { authErrorText } from "./sign-in";
import { LoadingState, ProblemState } from "./states";
import { formatDateTime } from "./time";

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

type Listed = { phase: "loading" } | { phase: "failed"; message: string } | { phase: "done"; passkeys: Factor[] };

/** PasskeySection is the account page's passkeys: the list, each with Remove, and the form that adds one. */
export function PasskeySection() {
  const { client, session } = useConsole();
  const [listed, setListed] = useState<Listed>({ phase: "loading" });
  const [notice, setNotice] = useState<string>();
  const load = useCallback(async () => {
    const { data, error } = await client.auth.mfa.listFactors();
    if (error) setListed({ phase: "failed", message: error.message });
    else setListed({ phase: "done", passkeys: data.webauthn });
  }, [client]);
  useEffect(() => {
    void load();
  }, [load, session.access_token]);

  const remove = async (f: Factor) => {
    if (!window.confirm(copy.removeConfirm)) return;
    setNotice(undefined);
    const { error } = await client.auth.mfa.unenroll({ factorId: f.id });
    if (error) {
      setNotice(error.status === 403 || error.status === 422 ? copy.errors.needsAal2 : passkeyErrorText(error));
      return;
    }
    // The session's assurance level is in its token: a new token says what is left.
    await client.auth.refreshSession();
    toast({ title: copy.removed });
    void load();
  };

  return (
    <section aria-labelledby="passkeys-title" className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900/40">
      <div>
        <h2 id="passkeys-title" className="text-lg font-semibold">
          {copy.title}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{copy.intro}</p>
      </div>
      {notice && <Notice tone="problem">{notice}</Notice>}
      {listed.phase === "loading" ? (
        <LoadingState />
      ) : listed.phase === "failed" ? (
        <ProblemState problem={{ kind: "other", message: listed.message }} onRetry={() => void load()} />
      ) : listed.passkeys.length === 0 ? (
        <p className="text-sm">{copy.none}</p>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="passkey-list">
          {listed.passkeys.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
              <span className="flex items-center gap-2">
                <FingerprintPattern aria-hidden="true" className="size-5 text-emerald-700 dark:text-emerald-300" />
                <span>
                  <span className="font-medium">{copy.factorName(f.friendly_name)}</span>
                  <span className="block text-xs text-slate-600 dark:text-slate-400">{accountCopy.mfa.added(formatDateTime(f.created_at))}</span>
                </span>
              </span>
              <button type="button" className={buttonClass("ghost", "sm")} aria-label={copy.removeLabel(f.friendly_name)} onClick={() => void remove(f)}>
                <Trash2 aria-hidden="true" className="size-4" />
                {copy.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      <PasskeyAdd client={client} onAdded={() => void load()} />
    </section>
  );
}

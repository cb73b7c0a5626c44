/**
 * Federated sign-in in the console: which identity providers the server
 * offers (GET /auth/v1/settings), a twin of the console's client that starts
 * their sign-in with PKCE, and what the browser brings back from them.
 */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { anonKeyOf, SESSION_STORAGE_KEY } from "../data/client";
import { CONSOLE_ROOT } from "../route";

export type SignInOptions = { providers: string[]; sso: boolean };

/** Names in settings.external that are not identity providers an operator added. */
const BUILT_IN = new Set(["email", "phone", "anonymous_users"]);

/** signInOptionsOf reads the providers that are on, and whether SAML single sign-on is, from a /settings answer. */
export function signInOptionsOf(settings: { external?: Record<string, boolean>; saml_enabled?: boolean }): SignInOptions {
  const providers = Object.entries(settings.external ?? {})
    .filter(([name, on]) => on && !BUILT_IN.has(name))
    .map(([name]) => name)
    .sort();
  return { providers, sso: settings.saml_enabled === true };
}

/** signInOptions asks the server (signal aborts it); a failure offers none (the e-mail code still works). */
export async function signInOptions(client: SupabaseClient, signal?: AbortSignal): Promise<SignInOptions> {
  try {
    const res = await fetch("/auth/v1/settings", { headers: { apikey: anonKeyOf(client), Accept: "application/json" }, signal });
    if (!res.ok) return { providers: [], sso: false };
    return signInOptionsOf(await res.json());
  } catch {
    return { providers: [], sso: false };
  }
}

/**
 * pkceTwin is a client that shares the console's session storage but starts
 * sign-ins with PKCE: the provider's way back carries only a code, which the
 * console's own client exchanges (the verifier is in the shared storage).
 */
export function pkceTwin(client: SupabaseClient): SupabaseClient {
  return createClient(location.origin, anonKeyOf(client), {
    auth: { persistSession: true, autoRefreshToken: false, storage: window.localStorage, storageKey: SESSION_STORAGE_KEY, detectSessionInUrl: false, flowType: "pkce" },
  });
}

/** consoleReturnURL is where a provider's sign-in comes back to: the console, or path in it (the account screen, after linking). */
export function consoleReturnURL(path: string = CONSOLE_ROOT): string {
  return location.origin + path;
}

/** Why the provider refused a link, until the account screen shows it. */
let linkRefusal: string | undefined;

/** holdLinkRefusal keeps why a provider's way back refused a signed-in person (a link), for the account screen. */
export function holdLinkRefusal(why: string): void {
  linkRefusal = why;
}

/** takeLinkRefusal returns the refusal held, once. */
export function takeLinkRefusal(): string | undefined {
  const why = linkRefusal;
  linkRefusal = undefined;
  return why;
}

export type ProviderReturn = { code: string } | { error: string } | undefined;

/** providerReturn reads what a provider's sign-in brought back: a PKCE code, or GoTrue's error parameters (query or fragment). */
export function providerReturn(search: string, hash: string): ProviderReturn {
  const q = new URLSearchParams(search);
  const h = new URLSearchParams(hash.replace(/^#/, ""));
  const code = q.get("code");
  if (code && !q.get("token_hash")) return { code };
  const error = q.get("error") ?? h.get("error");
  if (!error) return undefined;
  return { error: q.get("error_description") ?? h.get("error_description") ?? error };
}

/** PROVIDER_PARAMS are what providerReturn reads, to be taken out of the address bar. */
export const PROVIDER_PARAMS = ["code", "error", "error_code", "error_description", "sb"];

/** How a session began, for the account screen: an e-mail code, an OpenID Connect provider, or SAML single sign-on. */
export type FirstFactor = "code" | "provider" | "sso";

/** firstFactor reads how a session began from its authentication methods (the token's amr: GoTrue's objects, or RFC 8176's names). */
export function firstFactor(amr: readonly (string | { method: string })[] | undefined): FirstFactor {
  const methods = new Set((amr ?? []).map((m) => (typeof m === "string" ? m : m.method)));
  if (methods.has("sso/saml")) return "sso";
  if (methods.has("oauth")) return "provider";
  return "code";
}

/** The mailed sign-in link's token, read from the address and taken out of it with a provider's way back. */
import { PROVIDER_PARAMS } from "./federated";

export type LinkToken = { token_hash: string; type: "magiclink" | "email" };

/** linkToken reads the sign-in link's token_hash and type from a query string. */
export function linkToken(search: string): LinkToken | undefined {
  const p = new URLSearchParams(search);
  const token_hash = p.get("token_hash");
  const type = p.get("type");
  if (!token_hash || (type !== "magiclink" && type !== "email")) return undefined;
  return { token_hash, type };
}

/** withoutLinkToken is the URL without the parameters of a mailed link or of a provider's way back. */
export function withoutLinkToken(href: string): string {
  const u = new URL(href);
  for (const k of ["token_hash", "type", ...PROVIDER_PARAMS]) u.searchParams.delete(k);
  if (new URLSearchParams(u.hash.slice(1)).has("error")) u.hash = "";
  return u.pathname + u.search + u.hash;
}

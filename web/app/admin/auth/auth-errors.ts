/** What a person reads when a call of the sign-in, the two-step check or a passkey fails. */
import { signInCopy } from "~/content/console";
import { problemOf } from "../data/problem";

/** authErrorText is what a person reads when sending or checking a code failed. */
export function authErrorText(err: { status?: number; code?: string; message?: string; name?: string }, fallback: string): string {
  if (err.status === 429) return signInCopy.errors.tooMany;
  if (problemOf(err).kind === "network") return signInCopy.errors.network;
  return fallback;
}

/**
 * signInErrorText is authErrorText for the calls of the sign-in, which may
 * also fail for the CAPTCHA: refused (captcha_failed), or the server could
 * not have it verified (5xx).
 */
export function signInErrorText(err: { status?: number; code?: string; message?: string; name?: string }, fallback: string): string {
  if (err.code === "captcha_failed") return signInCopy.captcha.refused;
  if (problemOf(err).kind === "unavailable") return signInCopy.errors.unavailable;
  return authErrorText(err, fallback);
}

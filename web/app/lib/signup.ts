/**
 * Sign-ups from the site's forms: the resources newsletter and the
 * coming-soon products' waitlists. Each resolves when the sign-up is stored
 * (signing up twice is fine) and rejects with an Error whose message can be
 * shown to the visitor: the server's, or a generic one when the network
 * failed.
 */
import { FUNCTIONS_BASE, invokeFunction } from "./functions";

/** The forms' actions, for a post without JavaScript (the server answers with a confirmation page). */
export const newsletterAction = `${FUNCTIONS_BASE}/subscribe-newsletter`;
export const waitlistAction = `${FUNCTIONS_BASE}/join-waitlist`;

/** withToken adds the CAPTCHA token to a call's body when the form has one (lib/captcha.tsx). */
const withToken = (body: Record<string, string>, captchaToken?: string) => (captchaToken ? { ...body, captcha_token: captchaToken } : body);

export async function subscribeNewsletter(email: string, captchaToken?: string): Promise<void> {
  await invokeFunction("subscribe-newsletter", withToken({ email }, captchaToken));
}

export async function joinWaitlist(email: string, productId: string, captchaToken?: string): Promise<void> {
  await invokeFunction("join-waitlist", withToken({ email, productId }, captchaToken));
}

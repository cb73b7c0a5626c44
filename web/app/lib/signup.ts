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

export async function subscribeNewsletter(email: string): Promise<void> {
  await invokeFunction("subscribe-newsletter", { email });
}

export async function joinWaitlist(email: string, productId: string): Promise<void> {
  await invokeFunction("join-waitlist", { email, productId });
}

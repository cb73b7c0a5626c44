/**
 * Sign-ups from the site's forms: the resources newsletter and the
 * coming-soon products' waitlists. Each resolves when the sign-up is stored
 * (signing up twice is fine) and rejects with an Error whose message can be
 * shown to the visitor: the server's, or a generic one when the network
 * failed.
 */
import { invokeFunction } from "./functions";

export async function subscribeNewsletter(email: string): Promise<void> {
  await invokeFunction("subscribe-newsletter", { email });
}

export async function joinWaitlist(email: string, productId: string): Promise<void> {
  await invokeFunction("join-waitlist", { email, productId });
}

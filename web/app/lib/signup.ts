/**
 * Sign-ups from the site's forms: the resources newsletter and the
 * coming-soon products' waitlists. Each resolves when the sign-up is taken
 * and rejects with an Error whose message can be shown to the visitor.
 *
 * Until the backend functions exist, these follow the specification's
 * simulated behaviour (section 4): success after one second, nothing sent.
 */

export const SIMULATED_DELAY_MS = 1000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function subscribeNewsletter(email: string): Promise<void> {
  void email;
  await wait(SIMULATED_DELAY_MS);
}

export async function joinWaitlist(email: string, productId: string): Promise<void> {
  void email;
  void productId;
  await wait(SIMULATED_DELAY_MS);
}

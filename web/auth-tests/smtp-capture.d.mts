/** Types of smtp-capture.mjs, for the TypeScript tests that read mails (e2e/admin.spec.ts). */
export type CapturedMail = { to: string[]; data: string };
export type Capture = {
  url: string;
  mails: CapturedMail[];
  next(address: string, seen: number, timeoutMs?: number): Promise<CapturedMail>;
  close(): void;
};
export function startCapture(): Promise<Capture>;
export function body(mail: CapturedMail): string;

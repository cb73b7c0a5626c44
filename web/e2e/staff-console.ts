/**
 * Helpers of the staff console's end-to-end tests (admin.spec.ts): a studio
 * server of their own with a real SMTP peer that captures the sign-in mails,
 * the CLI against its store, sign-in as staff would, and TOTP codes.
 */
import { expect, type Page } from "@playwright/test";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { body, startCapture, type Capture } from "../auth-tests/smtp-capture.mjs";
import { env } from "../auth-tests/studio-env.mjs";
import { accountCopy, mfaCopy, signInCopy } from "../app/content/console";

const bin = resolve(import.meta.dirname, "../../bin/studio");

export type Studio = {
  base: string;
  dataDir: string;
  smtp: Capture;
  /** cli runs "studio ARGS --data DIR" against the server's store and returns what it printed. */
  cli: (...args: string[]) => string;
  stop: () => Promise<void>;
};

/** freePort is a loopback port that nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer().once("error", fail).listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

/**
 * startStudio serves bin/studio on a free port of 127.0.0.1 (named host in its
 * address) with its own store and mail capture, with every rate limit off (the tests sign in and submit more than people do).
 */
export async function startStudio(extraArgs: string[] = [], { host = "127.0.0.1" } = {}): Promise<Studio> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "studio-console-"));
  const smtp = await startCapture();
  // The site's address (--site-url); "localhost" where an IP address will not do (a passkey's relying party).
  const base = `http://${host}:${port}`;
  const proc: ChildProcess = spawn(
    bin,
    ["serve", "--addr", `127.0.0.1:${port}`, "--data", dataDir, "--site-url", base, "--smtp-url", smtp.url,
      "--notify-to", "team@studio.test", "--notify-from", "Studio <site@studio.test>",
      "--rate-limit", "off", "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off",
      // A session ended elsewhere closes the console's live channel within a
      // second, well inside the tests' waits (the default checks every 10 s).
      "--session-check", "1s", ...extraArgs],
    { stdio: ["ignore", "pipe", "inherit"], env },
  );
  await new Promise<void>((ok, fail) => {
    createInterface({ input: proc.stdout! }).on("line", (line) => {
      if (line.includes('"msg":"listening"')) ok();
    });
    proc.on("exit", (code) => fail(new Error(`studio serve exited ${code}`)));
  });
  // As a load balancer would, wait for /readyz: the first start with this
  // --site-url compresses the pages rewritten for it (decision 0025), and a
  // page asked meanwhile waits for them within the test's own time.
  for (const deadline = Date.now() + 60_000; ; await new Promise((ok) => setTimeout(ok, 50))) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error("studio serve was not ready within 60 s");
  }
  const cli = (...args: string[]) =>
    execFileSync(bin, [...args, "--data", dataDir], { encoding: "utf8", env });
  const stop = async () => {
    const exited = new Promise((ok) => proc.once("exit", ok));
    proc.kill("SIGTERM");
    await exited;
    smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, dataDir, smtp, cli, stop };
}

/** mailedSignIn reads the code and the link of the newest sign-in mail to email. */
export async function mailedSignIn(studio: Studio, email: string, seen: number): Promise<{ code: string; link: string }> {
  const text = body(await studio.smtp.next(email, seen));
  const code = text.match(/\n {4}(\d{6})\n/)?.[1];
  const link = text.match(/(https?:\/\/\S+token_hash=\S+)/)?.[1];
  if (!code || !link) throw new Error(`no code or link in the mail:\n${text}`);
  return { code, link };
}

/**
 * signIn signs email in at /admin as staff would: the address, "Send code",
 * then the 6-digit code, read from the captured mail, or with fromCli
 * printed by "studio staff sign-in-code" (one mail per address a minute).
 */
export async function signIn(page: Page, studio: Studio, email: string, { fromCli = false } = {}): Promise<void> {
  await page.goto(`${studio.base}/admin`);
  const seen = studio.smtp.mails.length;
  await page.getByLabel(signInCopy.emailLabel).fill(email);
  await page.getByRole("button", { name: signInCopy.send }).click();
  await expect(page.getByRole("heading", { name: signInCopy.checkMail.title })).toBeVisible();
  const code = fromCli ? studio.cli("staff", "sign-in-code", email).trim() : (await mailedSignIn(studio, email, seen)).code;
  await page.getByLabel(signInCopy.codeLabel).fill(code);
  await page.getByRole("button", { name: signInCopy.verify }).click();
  // Signed in (the console or the two-step check shows): the session is stored before the test goes on.
  await expect(page.getByLabel(signInCopy.codeLabel)).toHaveCount(0, { timeout: 20_000 });
}

/** totp is the RFC 6238 code (SHA-1, 30 s, 6 digits) of a base32 key at a time, as an authenticator app shows it. */
export function totp(secret: string, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of secret.replace(/[\s=]/g, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const h = createHmac("sha1", key).update(counter).digest();
  const offset = h[h.length - 1]! & 0xf;
  return String((h.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** The 30-second windows whose codes a test has typed, per key: a server may refuse a code used twice. */
const usedWindows = new Map<string, number>();

/** freshTotp is the current code of a key, after waiting for the next window when this one's code was typed already. */
export async function freshTotp(secret: string): Promise<string> {
  let window = Math.floor(Date.now() / 30_000);
  if (usedWindows.get(secret) === window) {
    await new Promise((ok) => setTimeout(ok, (window + 1) * 30_000 - Date.now() + 200));
    window += 1;
  }
  usedWindows.set(secret, window);
  return totp(secret);
}

/** enrolTotp sets up an authenticator from the account page and returns its key. */
export async function enrolTotp(page: Page): Promise<string> {
  const enrolment = page.getByTestId("totp-enrolment");
  const start = page.getByRole("button", { name: accountCopy.mfa.start });
  // The account page offers to start; the set-up that --require-mfa asks for starts by itself.
  await expect(enrolment.or(start)).toBeVisible();
  if (await start.isVisible()) await start.click();
  await expect(enrolment.getByRole("img", { name: accountCopy.mfa.qrAlt })).toBeVisible();
  const secret = (await enrolment.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  await enrolment.getByLabel(accountCopy.mfa.codeLabel).fill(await freshTotp(secret));
  await enrolment.getByRole("button", { name: accountCopy.mfa.confirm }).click();
  return secret;
}

/** passTwoStep types the current TOTP code at the two-step check. */
export async function passTwoStep(page: Page, secret: string): Promise<void> {
  await expect(page.getByRole("heading", { name: mfaCopy.title })).toBeVisible();
  await page.getByLabel(mfaCopy.codeLabel).fill(await freshTotp(secret));
  await page.getByRole("button", { name: mfaCopy.verify }).click();
}

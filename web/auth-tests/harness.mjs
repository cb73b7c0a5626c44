// What the tests of the official @supabase/supabase-js client against the
// real studio binary share: the binary's CLI on a temporary store, "studio
// serve" on a free port, and clients made as the console makes them.
//
// STUDIO_BIN names the binary (default bin/studio); with
// STUDIO_TEST_DATABASE_URL set (scripts/with-postgres) the binary stores in
// that PostgreSQL, else in SQLite in a temporary directory.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { randomBytes, createHmac } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import { env } from "./studio-env.mjs";

export const bin = resolve(process.env.STUDIO_BIN ?? join(import.meta.dirname, "../../bin/studio"));
export { pg, env } from "./studio-env.mjs";

/** staffAddress is a new address of staff: name+random@studio.test. */
export const staffAddress = (name) => `${name}+${randomBytes(4).toString("hex")}@studio.test`;

/**
 * removeDir removes a server's --data even while the server, just told to
 * stop, still writes into it (the compressed pages of its site cache, kept
 * there since decision 0025): a directory that gained a file while it was
 * being emptied is emptied again, every 100 ms for up to 10 s.
 */
export function removeDir(dir) {
  for (let tries = 1; ; tries++) {
    try {
      return rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if ((err.code !== "ENOTEMPTY" && err.code !== "EBUSY") || tries >= 100) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

/** newStore makes a temporary --data directory; cli runs a studio command on it. */
export function newStore() {
  const dataDir = mkdtempSync(join(tmpdir(), "studio-auth-"));
  return {
    dataDir,
    cli: (...args) => execFileSync(bin, [...args, "--data", dataDir], { encoding: "utf8", env }),
    remove: () => removeDir(dataDir),
  };
}

/** startServe runs "studio serve" with args and returns it and its base URL.
 * args must give a temporary --data: the server's store and secret key
 * must not land in the work tree. */
export async function startServe(args, serveEnv = env) {
  if (!args.includes("--data")) throw new Error(`startServe ${args.join(" ")}: give it a temporary --data`);
  const proc = spawn(bin, ["serve", "--addr", "127.0.0.1:0", ...args], { env: serveEnv, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout });
    lines.on("line", (line) => {
      try {
        const entry = JSON.parse(line);
        if (entry.msg === "listening") resolve(`http://${entry.addr}`);
      } catch {
        // not a log line
      }
    });
    proc.on("exit", (code) => reject(new Error(`studio serve exited ${code}`)));
  });
  return { proc, url };
}

/** makeClient makes a client as the console does, with its own storage, and
 * records the URLs it fetches (with their times). */
export function makeClient(origin, anonKey, flowType = "implicit") {
  const store = new Map();
  const fetched = [];
  const times = [];
  const c = createClient(origin, anonKey, {
    auth: {
      flowType,
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: {
        getItem: (k) => store.get(k) ?? null,
        setItem: (k, v) => void store.set(k, v),
        removeItem: (k) => void store.delete(k),
      },
    },
    // Node 20 has no WebSocket, which the realtime client looks for when it
    // is created; these tests do not use realtime, so a transport that
    // refuses to connect is enough.
    realtime: {
      transport: class {
        constructor() {
          throw new Error("realtime is not used by the auth tests");
        }
      },
    },
    global: {
      fetch: (url, init) => {
        fetched.push(`${init?.method ?? "GET"} ${new URL(url).pathname}`);
        times.push(Date.now());
        return fetch(url, init);
      },
    },
  });
  return { c, fetched, times, storage: store };
}

/** codeInMail is the 6-digit code of a sign-in mail's text. */
export const codeInMail = (text) => text.match(/\n {4}(\d{6})\n/)?.[1];

/** totp is the code of a base32 TOTP secret (SHA-1, 6 digits, 30 s) at
 * the time step `steps` after the current one: what an authenticator app
 * shows. */
export function totp(secret, steps = 0) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of secret.toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const key = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) key.push(parseInt(bits.slice(i, i + 8), 2));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + steps));
  const mac = createHmac("sha1", Buffer.from(key)).update(counter).digest();
  const n = mac.readUInt32BE(mac[mac.length - 1] & 0x0f) & 0x7fffffff;
  return String(n % 1_000_000).padStart(6, "0");
}

/** signInByCLI signs c in as email with a code from "studio staff sign-in-code". */
export async function signInByCLI(c, cli, email) {
  const code = cli("staff", "sign-in-code", email).trim();
  const { data, error } = await c.auth.verifyOtp({ email, token: code, type: "email" });
  if (error) throw error;
  return data;
}

/** sleep waits ms milliseconds. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

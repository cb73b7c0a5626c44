// Runs bin/studio for the supabase-js tests of /rest/v1 and /realtime/v1:
// a data directory (or, with STUDIO_TEST_DATABASE_URL, a new database on
// that PostgreSQL, so that each test file sees only its own rows), the CLI
// on it, servers on free ports, and staff signed in with printed codes.
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { createClient } from "@supabase/supabase-js";
import { removeDir } from "./harness.mjs";

const bin = resolve(process.env.STUDIO_BIN ?? join(import.meta.dirname, "../../bin/studio"));

/** Studio is one store with the servers started on it: a new database on
 * the PostgreSQL at options.postgres (by default STUDIO_TEST_DATABASE_URL),
 * else SQLite. */
export class Studio {
  constructor({ postgres = process.env.STUDIO_TEST_DATABASE_URL ?? "" } = {}) {
    this.dataDir = mkdtempSync(join(tmpdir(), "studio-console-"));
    this.admin = postgres;
    this.database = this.admin && `studio_console_${randomBytes(6).toString("hex")}`;
    let url = "";
    if (this.admin) {
      execFileSync("psql", [this.admin, "-qc", `CREATE DATABASE ${this.database}`]);
      const u = new URL(this.admin);
      u.pathname = `/${this.database}`;
      url = u.toString();
    }
    this.env = { ...process.env, DATABASE_URL: url };
    this.servers = [];
    this.clients = [];
    this.anonKey = this.cli("keys", "print-anon").trim();
  }

  /** cli runs a studio command on the store and returns its output. */
  cli(...args) {
    return execFileSync(bin, [...args, "--data", this.dataDir], { encoding: "utf8", env: this.env });
  }

  /** serve starts "studio serve" with extra flags; resolves to its base URL. */
  async serve(...flags) {
    const proc = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--data", this.dataDir, "--rate-limit", "off",
      "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off", ...flags],
    { env: this.env, stdio: ["ignore", "pipe", "inherit"] });
    this.servers.push(proc);
    return new Promise((resolve, reject) => {
      createInterface({ input: proc.stdout }).on("line", (line) => {
        try {
          const entry = JSON.parse(line);
          if (entry.msg === "listening") resolve(`http://${entry.addr}`);
        } catch {
          // not a log line
        }
      });
      proc.on("exit", (code) => reject(new Error(`studio serve exited ${code}`)));
    });
  }

  /** client makes a supabase-js client of base with its own session
   * storage; options.realtime is added to the realtime options. */
  client(base, options = {}) {
    const storage = new Map();
    const c = createClient(base, this.anonKey, {
      auth: {
        persistSession: true,
        autoRefreshToken: false,
        detectSessionInUrl: false,
        storage: {
          getItem: (k) => storage.get(k) ?? null,
          setItem: (k, v) => void storage.set(k, v),
          removeItem: (k) => void storage.delete(k),
        },
      },
      realtime: { params: { log_level: "error" }, ...options.realtime },
    });
    this.clients.push(c);
    return c;
  }

  /** signIn adds email as staff (once) and signs c in with a printed code. */
  async signIn(c, email) {
    if (!this.cli("staff", "list", "--format", "csv").includes(email)) this.cli("staff", "add", email);
    const token = this.cli("staff", "sign-in-code", email).trim();
    const { data, error } = await c.auth.verifyOtp({ email, token, type: "email" });
    assert.equal(error, null);
    return data.session;
  }

  /** mfaClient starts a server with --require-mfa and signs email in there
   * (at aal1). */
  async mfaClient(email) {
    const c = this.client(await this.serve("--require-mfa"));
    await this.signIn(c, email);
    return c;
  }

  /** contact sends a message as a visitor does; resolves to its id. */
  async contact(base, fields) {
    const res = await fetch(`${base}/functions/v1/submit-contact`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ company: null, phone: null, ...fields }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()).id;
  }

  /** close disconnects the clients' websockets (while the servers can still
   * answer the closing handshake), then stops the servers. */
  async close() {
    // realtime-js leaves a 10 s timer behind each disconnect: the tests run
    // with --test-force-exit.
    await Promise.all(this.clients.map((c) => c.realtime.disconnect()));
    for (const p of this.servers) p.kill("SIGTERM");
    removeDir(this.dataDir);
    if (this.admin) execFileSync("psql", [this.admin, "-qc", `DROP DATABASE ${this.database} WITH (FORCE)`]);
  }
}

// A PostgreSQL server of a test's own, to stop and start again: a cluster
// in a temporary directory on a free loopback port, run as the postgres
// user when the test runs as root (PostgreSQL refuses root). Debian's
// packages are found under /usr/lib/postgresql (make test installs them).
import { execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function serverBin() {
  const root = "/usr/lib/postgresql";
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => a - b);
  if (versions.length === 0) throw new Error(`no PostgreSQL server under ${root}`);
  return join(root, versions.at(-1), "bin");
}

/** startPostgres initdbs and starts a cluster; resolves to its url and
 * stop(mode), start() and close(). */
export function startPostgres() {
  const bin = serverBin();
  const dir = mkdtempSync(join(tmpdir(), "studio-pg-own-"));
  const root = process.getuid?.() === 0;
  if (root) chownSync(dir, Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })), Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })));
  const run = (program, ...args) =>
    execFileSync(root ? "runuser" : join(bin, program), root ? ["-u", "postgres", "--", join(bin, program), ...args] : args,
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const data = join(dir, "data");
  run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8");
  let port = 0;
  const start = () => run("pg_ctl", "-D", data, "-l", join(dir, "server.log"), "-w", "-t", "30",
    "-o", `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`, "start");
  for (let tries = 0; ; tries++) {
    port = 20000 + Math.floor(Math.random() * 40000);
    try {
      start();
      break;
    } catch (err) {
      if (tries === 20) throw err;
    }
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    /** stop stops the server with pg_ctl's mode (fast, immediate). */
    stop: (mode = "fast") => run("pg_ctl", "-D", data, "-m", mode, "-w", "stop"),
    start,
    close() {
      try {
        run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop");
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

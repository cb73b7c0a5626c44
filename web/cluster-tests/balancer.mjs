// Debian's nginx on loopback in front of studio instances, with the very
// configuration docs/deploy.md gives operators (deploy/nginx/studio.conf):
// only its upstream servers and its listen address are replaced.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { removeDir } from "../auth-tests/harness.mjs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const siteConf = join(import.meta.dirname, "../../deploy/nginx/studio.conf");

/** freePort is a loopback port that nothing listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** startBalancer runs nginx round robin over the instances' base URLs;
 * resolves to its base URL and a close function. */
export async function startBalancer(instances) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "studio-nginx-"));
  chmodSync(dir, 0o755); // nginx's workers run as another user when started by root
  let site = readFileSync(siteConf, "utf8");
  const upstreams = site.match(/^\s*server 127\.0\.0\.1:\d+ .*;$/gm) ?? [];
  if (upstreams.length !== 2 || !/^\s*listen 80;$/m.test(site)) {
    throw new Error(`${siteConf}: expected two "server 127.0.0.1:PORT …;" lines and "listen 80;"`);
  }
  site = site.replace(/^(\s*)server 127\.0\.0\.1:\d+ (.*);\n/gm, "");
  site = site.replace(/^(\s*)keepalive/m, (all, indent) =>
    instances.map((u) => `${indent}server ${new URL(u).host} max_fails=1 fail_timeout=5s;\n`).join("") + all);
  site = site.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`);
  const temp = (name) => `${name}_temp_path ${join(dir, name)};`;
  writeFileSync(join(dir, "nginx.conf"), `
worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log stderr crit; # the upstream resets of the kill test are expected
events { worker_connections 1024; }
http {
  access_log off;
  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}
  ${site}
}
`);
  const nginx = existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
  const proc = spawn(nginx, ["-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "inherit", "inherit"] });
  const exited = new Promise((resolve) => proc.on("exit", resolve));
  proc.on("error", (err) => {
    throw new Error(`nginx: ${err.message} (make test installs Debian's nginx)`);
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (i > 100 || proc.exitCode !== null) throw new Error("nginx did not start");
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    close: async () => {
      proc.kill("SIGQUIT");
      await exited;
      removeDir(dir);
    },
  };
}

// As a program (make bench-cluster): node balancer.mjs URL... prints the
// balancer's URL and runs until its standard input closes.
if (import.meta.url === `file://${process.argv[1]}`) {
  const lb = await startBalancer(process.argv.slice(2));
  console.log(lb.url);
  process.stdin.resume();
  process.stdin.on("end", () => lb.close().then(() => process.exit(0)));
}

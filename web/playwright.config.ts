import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * End-to-end tests run against the real binary (make build leaves it in
 * bin/studio) in Debian's Chromium; Playwright never downloads a browser.
 */
const port = Number(process.env.E2E_PORT ?? 4319);
export const baseURL = `http://127.0.0.1:${port}`;
/**
 * A second server whose store cannot be reached (its DATABASE_URL points at
 * a port where no PostgreSQL listens): its functions answer 503, for the
 * error paths of the forms.
 */
const failingPort = Number(process.env.E2E_FAILING_PORT ?? port + 1);
export const failingBaseURL = `http://127.0.0.1:${failingPort}`;
/**
 * The store of the main server. The workers load this file again, so the
 * directory is made once and handed down in the environment; the tests read
 * it with `studio messages list --data`.
 */
process.env.STUDIO_E2E_DATA ??= mkdtempSync(join(tmpdir(), "studio-e2e-"));
export const dataDir = process.env.STUDIO_E2E_DATA;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  forbidOnly: true,
  reporter: [["list"]],
  timeout: 30_000,
  use: {
    baseURL,
    browserName: "chromium",
    viewport: { width: 1280, height: 800 },
    // Smooth scrolling would let a pointer action land while the page still
    // moves (a flaky hover); the fade test asks for motion itself.
    contextOptions: { reducedMotion: "reduce" },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: [
    {
      // The tests submit more than a visitor would: a looser rate limit.
      command: `../bin/studio serve --addr 127.0.0.1:${port} --data ${dataDir} --rate-limit 300/1m`,
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      timeout: 30_000,
    },
    {
      // Its own --data: local state (the secret key file) stays out of the tree.
      command: `../bin/studio serve --addr 127.0.0.1:${failingPort} --data ${join(dataDir, "failing")} --rate-limit off`,
      env: { DATABASE_URL: "postgres://studio@127.0.0.1:9/unreachable?connect_timeout=2" },
      url: `${failingBaseURL}/healthz`,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "ignore",
      timeout: 30_000,
    },
  ],
});

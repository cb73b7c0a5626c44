/**
 * No open redirect: a mailed sign-in link asked for with a hostile
 * redirect_to, and hostile paths typed directly, leave Chromium on the site,
 * and it never sends a request to another host (which would carry the
 * link's token there). Against a studio server of its own (one a worker, on a
 * free port) whose sign-in mails go to a real SMTP peer.
 *
 * Whether the server replaces a redirect_to it does not allow (by the
 * console) or keeps it, the browser must end on the site.
 */
import { test, expect, type Browser, type Page } from "@playwright/test";
import { mailedSignIn, startStudio, type Studio } from "./staff-console";

let studio: Studio;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a first start migrates a new store: slow on a loaded machine
  studio = await startStudio();
});

test.afterAll(async () => {
  await studio?.stop();
});

/**
 * A page whose browser records the host of every request it makes and
 * aborts those to any host but the site's, so that nothing leaves the machine.
 */
async function watchedPage(browser: Browser): Promise<{ page: Page; hosts: Set<string> }> {
  const site = new URL(studio.base).host;
  const context = await browser.newContext();
  const hosts = new Set<string>();
  context.on("request", (request) => hosts.add(new URL(request.url()).host));
  await context.route("**", (route) => (new URL(route.request().url()).host === site ? route.continue() : route.abort()));
  return { page: await context.newPage(), hosts };
}

/** open goes to url and reports where the browser ended and every host it asked. */
async function open(browser: Browser, url: string): Promise<{ origin: string; hosts: string[]; error?: string }> {
  const { page, hosts } = await watchedPage(browser);
  let error: string | undefined;
  try {
    await page.goto(url);
    await page.waitForLoadState("load");
  } catch (e) {
    error = String(e); // an aborted request to another host; the host is in hosts
  }
  const origin = new URL(page.url()).origin;
  await page.context().close();
  return { origin, hosts: [...hosts], error };
}

let staffCount = 0;
function addStaff(): string {
  const email = `redirect+${Date.now().toString(36)}${staffCount++}@studio.test`;
  expect(studio.cli("staff", "add", email, "--name", "Redirect Test")).toContain(`added ${email}`);
  return email;
}

for (const [name, hostilePath] of [
  ["an escaped backslash", "/%5Cevil.example/"],
  ["a backslash", "/\\evil.example/"],
  ["an escaped tab between slashes", "/%09/evil.example/"],
]) {
  test(`a mailed sign-in link asked for with redirect_to ${name} (${hostilePath}) stays on the site`, async ({ request, browser }) => {
    const email = addStaff();
    const seen = studio.smtp.mails.length;
    const res = await request.post(`${studio.base}/auth/v1/otp?redirect_to=${encodeURIComponent(studio.base + hostilePath)}`, {
      data: { email, create_user: false },
    });
    expect(res.status()).toBe(200);
    const { link } = await mailedSignIn(studio, email, seen);
    expect(new URL(link).origin).toBe(studio.base);

    const { origin, hosts, error } = await open(browser, link);
    expect(hosts, `hosts asked after opening ${link}`).toEqual([new URL(studio.base).host]);
    expect(origin).toBe(studio.base);
    expect(error).toBeUndefined();
  });
}

for (const path of [
  "/%5Cevil.example/?token_hash=x&type=magiclink",
  "/\\evil.example/?token_hash=x",
  "/%5C%5Cevil.example/",
  "//evil.example/",
  "/%2F%2Fevil.example/",
  "/%2F/evil.example/",
  "/%09/evil.example/",
  "/%0D%0A/evil.example/",
  "/./%5Cevil.example/index.html",
]) {
  test(`GET ${path} stays on the site`, async ({ browser }) => {
    const { origin, hosts, error } = await open(browser, studio.base + path);
    expect(hosts, `hosts asked after opening ${path}`).toEqual([new URL(studio.base).host]);
    expect(origin).toBe(studio.base);
    expect(error).toBeUndefined();
  });
}

/**
 * The staff console at /admin, as staff use it, against a studio server of
 * its own (one a worker, on a free port) whose sign-in mails go to a real SMTP peer.
 *
 * The console talks to the binary's /auth/v1 (with TOTP MFA), /rest/v1 and
 * /realtime/v1. Nothing here stands in for a backend.
 */
import { test, expect, type Browser, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { accountCopy, consoleShell, inboxCopy, listCopy, messageCopy, signInCopy, subscribersCopy, waitlistCopy } from "../app/content/console";
import { contactForm } from "../app/content/contact";
import { hydrated } from "./fixtures";
import { enrolTotp, mailedSignIn, passTwoStep, signIn, startStudio, type Studio } from "./staff-console";
import { expectNoAxeViolations } from "./axe";


let studio: Studio;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a first start migrates a new store: slow on a loaded machine
  studio = await startStudio();
});

test.afterAll(async () => {
  await studio?.stop();
});

let staffCount = 0;
/** addStaff adds a new member of staff with the CLI and returns the address (each test its own: one mail per address a minute). */
function addStaff(name: string): string {
  const email = `${name.toLowerCase()}+${Date.now().toString(36)}${staffCount++}@studio.test`;
  expect(studio.cli("staff", "add", email, "--name", name)).toContain(`added ${email}`);
  return email;
}

async function newPage(browser: Browser, { width = 1280, theme = "light" } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, reducedMotion: "reduce" });
  await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
  return context.newPage();
}

const inboxHeading = (page: Page) => page.getByRole("heading", { level: 1, name: inboxCopy.title });

/** submitContact sends a contact message through the public function, as the site's form does. */
async function submitContact(page: Page, m: { name: string; email?: string; company?: string | null; message?: string; website?: string }) {
  const res = await page.request.post(`${studio.base}/functions/v1/submit-contact`, {
    data: { email: `${m.name.toLowerCase().replace(/\W+/g, ".")}@example.com`, company: null, phone: null, message: `Hello from ${m.name}`, ...m },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as { id: string };
}

test.describe("serving", () => {
  test("every path under /admin answers the console's shell, noindex, with COOP; public pages have none", async ({ request }) => {
    for (const path of ["/admin", "/admin/inbox", "/admin/inbox/some-id?filter=spam", "/admin/account"]) {
      const res = await request.get(studio.base + path);
      expect(res.status(), path).toBe(200);
      expect(res.headers()["cross-origin-opener-policy"], path).toBe("same-origin");
      expect(res.headers()["x-robots-tag"], path).toBe("noindex, nofollow");
      expect(await res.text(), path).toContain('<meta name="robots" content="noindex">');
    }
    const home = await request.get(`${studio.base}/`);
    expect(home.headers()["cross-origin-opener-policy"]).toBeUndefined();
    expect(await home.text()).not.toContain("/admin");
    expect(await (await request.get(`${studio.base}/sitemap.xml`)).text()).not.toContain("/admin");
    const config = await request.get(`${studio.base}/admin/config.json`);
    expect(config.headers()["cache-control"]).toBe("no-store");
    // The key "studio keys print-anon" prints: the same claims and key (ES256 signatures differ each time).
    const claims = (jwt: string) => jwt.split(".").slice(0, 2).join(".");
    expect(claims((await config.json()).anonKey)).toBe(claims(studio.cli("keys", "print-anon").trim()));
  });
});

test.describe("sign-in", () => {
  test("a new member of staff signs in with the code from the mail, keeps the session over a reload, and signs out", async ({ browser }) => {
    const email = addStaff("Ada");
    const page = await newPage(browser);
    await page.goto(`${studio.base}/admin`);
    await expect(page.getByRole("heading", { name: signInCopy.title })).toBeVisible();
    await expectNoAxeViolations(page, "sign-in");
    // A wrong address shape is caught before anything is sent.
    await page.getByLabel(signInCopy.emailLabel).fill("not-an-address");
    await page.getByRole("button", { name: signInCopy.send }).click();
    await expect(page.getByText(signInCopy.errors.email)).toBeVisible();

    const seen = studio.smtp.mails.length;
    await page.getByLabel(signInCopy.emailLabel).fill(email);
    await page.getByLabel(signInCopy.emailLabel).press("Enter");
    await expect(page.getByRole("heading", { name: signInCopy.checkMail.title })).toBeVisible();
    await expect(page.getByLabel(signInCopy.codeLabel)).toBeFocused();
    await expectNoAxeViolations(page, "check your mail");
    const { code } = await mailedSignIn(studio, email, seen);
    // A wrong code is refused and the form stays.
    await page.getByLabel(signInCopy.codeLabel).fill(code === "000000" ? "111111" : "000000");
    await page.getByLabel(signInCopy.codeLabel).press("Enter");
    await expect(page.getByText(signInCopy.errors.wrongCode)).toBeVisible();
    await page.getByLabel(signInCopy.codeLabel).fill(code);
    await page.getByRole("button", { name: signInCopy.verify }).click();
    await expect(inboxHeading(page)).toBeVisible();
    await expect(page).toHaveURL(/\/admin$/);

    // The session lives in localStorage: a reload stays signed in.
    await page.reload();
    await expect(inboxHeading(page)).toBeVisible();
    await page.getByRole("link", { name: "Account" }).click();
    await expect(page).toHaveURL(/\/admin\/account$/);
    await expect(page.getByTestId("account-email")).toHaveText(email);
    await page.getByRole("button", { name: accountCopy.signOut.here }).click();
    await expect(page.getByRole("heading", { name: signInCopy.title })).toBeVisible();
    // The address is kept for the next sign-in; no "session ended" for a sign-out asked for.
    await expect(page.getByLabel(signInCopy.emailLabel)).toHaveValue(email);
    await expect(page.getByText(signInCopy.expired)).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("heading", { name: signInCopy.title })).toBeVisible();
  });

  test("the link in the mail lands in the console signed in, and is taken out of the address bar", async ({ browser }) => {
    const email = addStaff("Grace");
    const page = await newPage(browser);
    await page.goto(`${studio.base}/admin`);
    const seen = studio.smtp.mails.length;
    await page.getByLabel(signInCopy.emailLabel).fill(email);
    await page.getByRole("button", { name: signInCopy.send }).click();
    const { link } = await mailedSignIn(studio, email, seen);
    expect(link).toMatch(new RegExp(`^${studio.base}/admin\\?token_hash=`));
    // The link is opened in another tab of the same browser, as a mail client does.
    const tab = await page.context().newPage();
    await tab.goto(link);
    await expect(inboxHeading(tab)).toBeVisible();
    await expect(tab).toHaveURL(`${studio.base}/admin`);
    // Used once: opening it again signs nobody in.
    const other = await newPage(browser);
    await other.goto(link);
    await expect(other.getByText(signInCopy.errors.badLink)).toBeVisible();
  });

  test("a second code within the minute: the console goes on to the code, and the CLI's code signs in", async ({ browser }) => {
    const email = addStaff("Mary");
    const page = await newPage(browser, { width: 375, theme: "dark" });
    await signIn(page, studio, email);
    await expect(inboxHeading(page)).toBeVisible();
    await page.getByRole("link", { name: "Account" }).click();
    await page.getByRole("button", { name: accountCopy.signOut.here }).click();
    await page.getByRole("button", { name: signInCopy.send }).click();
    await expect(page.getByText(signInCopy.recentlySent)).toBeVisible();
    await page.getByLabel(signInCopy.codeLabel).fill(studio.cli("staff", "sign-in-code", email).trim());
    await page.getByRole("button", { name: signInCopy.verify }).click();
    // Back where the person was.
    await expect(page.getByRole("heading", { level: 1, name: accountCopy.title })).toBeVisible();
  });

  test("signing out everywhere sends the person's other browsers to sign-in, with the address kept", async ({ browser }) => {
    const email = addStaff("Lin");
    const first = await newPage(browser);
    await signIn(first, studio, email);
    await expect(inboxHeading(first)).toBeVisible();
    const second = await newPage(browser, { width: 375 });
    await signIn(second, studio, email, { fromCli: true });
    await expect(inboxHeading(second)).toBeVisible();

    await first.goto(`${studio.base}/admin/account`);
    await first.getByRole("button", { name: accountCopy.signOut.everywhere }).click();
    await expect(first.getByRole("heading", { name: signInCopy.title })).toBeVisible();
    // Live: the server closes the other browser's realtime connection.
    await expect(second.getByRole("heading", { name: signInCopy.title })).toBeVisible({ timeout: 10_000 });
    await expect(second.getByText(signInCopy.expired)).toBeVisible();
    await expect(second.getByLabel(signInCopy.emailLabel)).toHaveValue(email);
  });

  test("the console's screens have no axe violations at 1280 and 375 px, light and dark", async ({ browser }) => {
    // Every screen four times: about 2 minutes on an idle 2-core machine, more while other suites run.
    test.setTimeout(300_000);
    const email = addStaff("Hedy");
    const page = await newPage(browser);
    await signIn(page, studio, email, { fromCli: true });
    await expect(inboxHeading(page)).toBeVisible();
    const state = await page.context().storageState();
    for (const width of [1280, 375]) {
      for (const theme of ["light", "dark"]) {
        const context = await browser.newContext({ viewport: { width, height: 800 }, storageState: state });
        await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
        const p = await context.newPage();
        for (const [path, title] of [
          ["/admin/inbox", inboxCopy.title],
          ["/admin/waitlist", waitlistCopy.title],
          ["/admin/subscribers", subscribersCopy.title],
          ["/admin/account", accountCopy.title],
        ] as const) {
          await p.goto(studio.base + path);
          await expect(p.getByRole("heading", { level: 1, name: title })).toBeVisible();
          await expect(p.locator('[aria-busy="true"], [role="status"]:has-text("Loading")')).toHaveCount(0);
          await expectNoAxeViolations(p, `${path} ${width}px ${theme}`);
        }
        await context.close();
      }
    }
  });
});

test.describe("two-step sign-in (TOTP)", () => {
  test("enrol an authenticator from the account page, sign out, sign in again with the TOTP code, remove it", async ({ browser }) => {
    test.setTimeout(120_000); // a TOTP code may have to wait for the next 30 s window
    const email = addStaff("Katherine");
    const page = await newPage(browser);
    await signIn(page, studio, email);
    await page.getByRole("link", { name: "Account" }).click();
    await expect(page.getByText(accountCopy.mfa.none)).toBeVisible();
    await page.getByRole("button", { name: accountCopy.mfa.start }).click();
    await expectNoAxeViolations(page, "TOTP enrolment");
    const secret = await enrolTotp(page);
    await expect(page.getByTestId("factor-list")).toBeVisible();
    await expect(page.getByTestId("session-level")).toHaveAttribute("data-level", "aal2");

    await page.getByRole("button", { name: accountCopy.signOut.here }).click();
    await expect(page.getByLabel(signInCopy.emailLabel)).toBeVisible(); // signed out before the next visit
    await signIn(page, studio, email, { fromCli: true });
    await passTwoStep(page, secret);
    await expect(inboxHeading(page)).toBeVisible();

    await page.getByRole("link", { name: "Account" }).click();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: accountCopy.mfa.remove }).click();
    await expect(page.getByText(accountCopy.mfa.none)).toBeVisible();
  });

  test("with --require-mfa, staff without an authenticator set one up before any data shows", async ({ browser }) => {
    test.setTimeout(120_000);
    const strict = await startStudio(["--require-mfa"]);
    try {
      const email = `alan+${Date.now().toString(36)}@studio.test`;
      strict.cli("staff", "add", email);
      const page = await newPage(browser);
      await signIn(page, strict, email, { fromCli: true });
      await expect(page.getByRole("heading", { name: "Set up two-step sign-in first" })).toBeVisible();
      await enrolTotp(page);
      await expect(inboxHeading(page)).toBeVisible();
    } finally {
      await strict.stop();
    }
  });
});

test.describe("inbox, waitlist and subscribers", () => {
  test("a message sent from /contact appears live in an open inbox; handled by one, seen by another", async ({ browser }) => {
    test.setTimeout(90_000); // three browsers, and axe on the message once the notices have gone
    const ada = await newPage(browser);
    await signIn(ada, studio, addStaff("Ada"), { fromCli: true });
    await expect(inboxHeading(ada)).toBeVisible();
    await expect(ada.getByTestId("live-status")).toHaveAttribute("data-status", "live");
    const grace = await newPage(browser, { width: 375, theme: "dark" });
    await signIn(grace, studio, addStaff("Grace"), { fromCli: true });
    await grace.goto(`${studio.base}/admin/inbox?filter=all`);
    await expect(grace.getByTestId("live-status")).toHaveAttribute("data-status", "live");

    // A visitor, in a browser of their own, sends the contact form.
    const visitor = await newPage(browser);
    await visitor.goto(`${studio.base}/contact`);
    await hydrated(visitor); // the form's island runs: this test is about the inbox, not a form's first moments
    const name = `Live Visitor ${Date.now()}`;
    await visitor.getByRole("textbox", { name: /^Name/ }).fill(name);
    await visitor.getByRole("textbox", { name: /^Email/ }).fill("visitor@example.com");
    await visitor.getByRole("textbox", { name: /^Company/ }).fill("Visitor Corp");
    await visitor.getByRole("textbox", { name: /^Message/ }).fill("Can you build our MVP?");
    const sent = Date.now();
    await visitor.getByRole("button", { name: contactForm.submit }).click();
    await expect(visitor.getByRole("heading", { name: contactForm.success.title })).toBeVisible();

    const row = ada.getByTestId("message-list").getByRole("link", { name: new RegExp(name) });
    await expect(row).toBeVisible({ timeout: 1_000 + (Date.now() - sent) });
    await expect(ada.getByText(inboxCopy.newMessage(name))).toBeVisible();
    await expect(grace.getByTestId("message-list").getByRole("link", { name: new RegExp(name) })).toBeVisible();

    // Ada opens it: every field, and marks it handled.
    await row.click();
    await expect(ada.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(ada.getByText("Visitor Corp")).toBeVisible();
    await expect(ada.getByText("Can you build our MVP?")).toBeVisible();
    await expect(ada.getByRole("link", { name: messageCopy.actions.reply })).toHaveAttribute("href", /^mailto:visitor@example\.com\?subject=Re%3A/);
    // The new message's notice may still be on screen: no violations either way.
    await expectNoAxeViolations(ada, "message view");
    await ada.getByRole("button", { name: messageCopy.actions.handle }).click();
    await expect(ada.getByText(/^Handled by ada\+/)).toBeVisible();

    // Grace sees it handled without a reload.
    await expect(grace.getByTestId("message-list").getByRole("link", { name: new RegExp(name) }).locator('[data-status="handled"]')).toBeVisible();
    // Reopen, spam and not spam go back and forth.
    await ada.getByRole("button", { name: messageCopy.actions.reopen }).click();
    await expect(ada.getByRole("button", { name: messageCopy.actions.handle })).toBeVisible();
    await ada.getByRole("button", { name: messageCopy.actions.spam }).click();
    await expect(ada.getByRole("button", { name: messageCopy.actions.notSpam })).toBeVisible();
    await ada.getByRole("button", { name: messageCopy.actions.notSpam }).click();
    await expect(ada.getByRole("button", { name: messageCopy.actions.spam })).toBeVisible();
  });

  test("with the live feed off, marking a message handled updates the open count and the inbox at once", async ({ browser }) => {
    const page = await newPage(browser);
    // No realtime connection: nothing comes back live, so what changes comes from the console's own write.
    await page.routeWebSocket(/\/realtime\/v1\//, (ws) => ws.close());
    const name = `Offline ${Date.now().toString(36)}`;
    await submitContact(page, { name });
    await signIn(page, studio, addStaff("Mary"), { fromCli: true });
    await expect(inboxHeading(page)).toBeVisible();
    await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "off");
    const before = Number(await page.getByTestId("open-count").locator('[aria-hidden="true"]').textContent());

    await page.getByTestId("message-list").getByRole("link", { name: new RegExp(name) }).click();
    await page.getByRole("button", { name: messageCopy.actions.handle }).click();
    await expect(page.getByText(/^Handled by mary\+/)).toBeVisible();
    if (before > 1) await expect(page.getByTestId("open-count")).toContainText(String(before - 1), { timeout: 2_000 });
    else await expect(page.getByTestId("open-count")).toHaveCount(0, { timeout: 2_000 });
    await page.getByRole("link", { name: messageCopy.back }).click();
    await expect(inboxHeading(page)).toBeVisible();
    await expect(page.getByTestId("message-list").getByRole("link", { name: new RegExp(name) })).toHaveCount(0);
  });

  test("filter, search and page through the inbox; the honeypot's catch is under spam; the open count is in the navigation", async ({ browser }) => {
    const page = await newPage(browser);
    const tag = Date.now().toString(36);
    for (let i = 1; i <= 30; i++) await submitContact(page, { name: `Bulk ${tag} ${String(i).padStart(2, "0")}`, company: i % 2 ? "Acme" : null });
    await submitContact(page, { name: `Bot ${tag}`, website: "https://spam.example" });
    await signIn(page, studio, addStaff("Frances"), { fromCli: true });
    await expect(inboxHeading(page)).toBeVisible();
    await expect(page.getByTestId("open-count")).toBeVisible();

    await page.getByRole("searchbox", { name: inboxCopy.searchLabel }).fill(`Bulk ${tag}`);
    await expect(page).toHaveURL(/q=Bulk/);
    await expect(page.getByTestId("list-range")).toHaveText(listCopy.range(1, 25, 30));
    await expect(page.getByTestId("message-list").getByRole("listitem")).toHaveCount(25);
    // Newest first.
    await expect(page.getByTestId("message-list").getByRole("link").first()).toContainText(`Bulk ${tag} 30`);
    await page.getByRole("button", { name: listCopy.next }).click();
    await expect(page.getByTestId("list-range")).toHaveText(listCopy.range(26, 30, 30));
    await expect(page).toHaveURL(/page=2/);
    await page.goBack();
    await expect(page.getByTestId("list-range")).toHaveText(listCopy.range(1, 25, 30));

    await page.getByRole("searchbox", { name: inboxCopy.searchLabel }).fill(`Bulk ${tag} 07`);
    await expect(page.getByTestId("message-list").getByRole("listitem")).toHaveCount(1);
    await page.getByRole("searchbox", { name: inboxCopy.searchLabel }).fill(`zzz-nothing-${tag}`);
    // Exact: the list's status region says it too, with the hint after it (console-a11y.spec.ts).
    await expect(page.getByText(inboxCopy.empty.search(`zzz-nothing-${tag}`).title, { exact: true })).toBeVisible();

    await page.getByRole("button", { name: listCopy.clearSearch }).click();
    await page.getByRole("button", { name: inboxCopy.filters.spam }).click();
    await expect(page.getByTestId("message-list").getByRole("link", { name: new RegExp(`Bot ${tag}`) })).toBeVisible();
    await page.getByRole("button", { name: inboxCopy.filters.open }).click();
    await expect(page.getByTestId("message-list").getByRole("link", { name: new RegExp(`Bot ${tag}`) })).toHaveCount(0);
  });

  test("the inbox's CSV export has the rows of `studio messages list --format csv`", async ({ browser }) => {
    const page = await newPage(browser);
    // Messages of this test only (another worker may add its own meanwhile): a tag the search finds.
    const tag = `csv${Date.now().toString(36)}`;
    await submitContact(page, { name: `Csv, "Quoted" ${tag}`, message: "Line one\nLine two, with a comma" });
    await submitContact(page, { name: `Plain ${tag}`, company: "Acme" });
    await submitContact(page, { name: `Bot ${tag}`, website: "https://spam.example" });
    await signIn(page, studio, addStaff("Barbara"), { fromCli: true });
    await expect(inboxHeading(page)).toBeVisible();
    await page.getByRole("button", { name: inboxCopy.filters.all }).click();
    await page.getByRole("searchbox", { name: inboxCopy.searchLabel }).fill(tag);
    await expect(page).toHaveURL(new RegExp(`q=${tag}`));
    await expect(page.getByTestId("message-list").getByRole("listitem")).toHaveCount(3);
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: listCopy.export }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^contact-messages-search-${tag}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const exported = parseCsv(readFileSync(await file.path(), "utf8"));
    const listed = parseCsv(studio.cli("messages", "list", "--format", "csv"));
    expect(exported[0]).toEqual(listed[0]);
    const tagged = listed.slice(1).filter((row) => row.some((cell) => cell.includes(tag)));
    expect(tagged).toHaveLength(3);
    expect(normalizeRows(exported.slice(1))).toEqual(normalizeRows(tagged));
  });

  test("the waitlist counts sign-ups per product; subscribers are listed newest first; both export", async ({ browser }) => {
    const page = await newPage(browser);
    const tag = Date.now().toString(36);
    for (const [product, who] of [["saas-2", "w1"], ["saas-2", "w2"], ["saas-3", "w3"]] as const) {
      expect((await page.request.post(`${studio.base}/functions/v1/join-waitlist`, { data: { email: `${who}.${tag}@example.com`, productId: product } })).status()).toBe(200);
    }
    for (const who of ["s1", "s2"]) {
      expect((await page.request.post(`${studio.base}/functions/v1/subscribe-newsletter`, { data: { email: `${who}.${tag}@example.com` } })).status()).toBe(200);
    }
    await signIn(page, studio, addStaff("Radia"), { fromCli: true });
    await page.getByRole("link", { name: "Waitlist" }).click();
    // The counts are those of the whole store, as the CLI sees it.
    const entries = JSON.parse(studio.cli("waitlist", "list", "--format", "json")) as { product_id: string }[];
    for (const product of ["saas-2", "saas-3"]) {
      await expect(page.getByTestId(`waitlist-count-${product}`)).toHaveText(waitlistCopy.people(entries.filter((e) => e.product_id === product).length));
    }
    await page.getByRole("searchbox", { name: waitlistCopy.searchLabel }).fill(`w3.${tag}`);
    await expect(page.getByRole("cell", { name: `w3.${tag}@example.com` })).toBeVisible();
    await page.getByRole("link", { name: "Subscribers" }).click();
    await expect(page.getByRole("row").nth(1)).toContainText(`s2.${tag}@example.com`);
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: listCopy.export }).click();
    expect((await download).suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
  });
});

test.describe("problems", () => {
  test("when the server's settings cannot be loaded, the console says so and offers to try again", async ({ browser }) => {
    const page = await newPage(browser);
    await page.route("**/admin/config.json", (route) => route.fulfill({ status: 503, body: "down" }));
    await page.goto(`${studio.base}/admin`);
    await expect(page.getByRole("heading", { name: consoleShell.configProblem.title })).toBeVisible();
    await page.unroute("**/admin/config.json");
    await page.getByRole("button", { name: listCopy.retry }).click();
    await expect(page.getByRole("heading", { name: signInCopy.title })).toBeVisible();
  });
});

/** parseCsv reads RFC 4180 CSV (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field), rows.push(row), (row = []), (field = "");
    } else field += c;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows;
}

/** normalizeRows sorts rows by id and writes times and booleans one way, so the two exports compare by content. */
function normalizeRows(rows: string[][]): string[][] {
  const norm = (cell: string) => (/^\d{4}-\d{2}-\d{2}[T ]/.test(cell) ? new Date(cell.replace(" ", "T")).toISOString() : cell === "t" ? "true" : cell === "f" ? "false" : cell);
  return rows.map((r) => r.map(norm)).sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

/**
 * The staff console walked by keyboard and screen reader (issue 30, WCAG 2.2
 * AA), at 375 and 1280 px, against a studio server of its own: what a
 * search announces, where focus lands after sign-in and the authenticator's
 * set-up, codes pasted or typed with spaces, and the title of each screen.
 * What a screen reader gets is read from Chromium's accessibility tree
 * (CDP Accessibility.getFullAXTree), focus from document.activeElement.
 */
import { test, expect, type Browser, type Page } from "@playwright/test";
import { accountCopy, consoleMeta, consoleNav, consoleShell, inboxCopy, listCopy, messageCopy, mfaCopy, signInCopy } from "../app/content/console";
import { studio as site } from "../app/content/site";
import { freshTotp, mailedSignIn, passTwoStep, signIn, startStudio, type Studio } from "./staff-console";

let studio: Studio;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a first start migrates a new store: slow on a loaded machine
  studio = await startStudio();
});

test.afterAll(async () => {
  await studio?.stop();
});

let staffCount = 0;
function addStaff(name: string): string {
  const email = `${name.toLowerCase()}+${Date.now().toString(36)}${staffCount++}@studio.test`;
  expect(studio.cli("staff", "add", email, "--name", name)).toContain(`added ${email}`);
  return email;
}

async function newPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, reducedMotion: "reduce" });
  return context.newPage();
}

type AXValue = { value?: unknown };
type AXNode = {
  nodeId: string;
  ignored?: boolean;
  role?: AXValue;
  name?: AXValue;
  properties?: { name: string; value: AXValue }[];
  childIds?: string[];
  parentId?: string;
  backendDOMNodeId?: number;
};

/** axTree is the page's full accessibility tree, as assistive technology gets it. */
async function axTree(page: Page): Promise<AXNode[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as { nodes: AXNode[] };
    return nodes;
  } finally {
    await cdp.detach();
  }
}

const prop = (n: AXNode, name: string) => n.properties?.find((p) => p.name === name)?.value.value;

/** Live regions: the outermost nodes that are polite or assertive, with the text inside them. */
async function liveRegions(page: Page): Promise<{ id?: number; live: string; text: string }[]> {
  const nodes = await axTree(page);
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const isLive = (n: AXNode | undefined) => !!n && (prop(n, "live") === "polite" || prop(n, "live") === "assertive");
  const text = (n: AXNode): string => {
    if (n.role?.value === "StaticText" || n.role?.value === "InlineTextBox") return n.role.value === "StaticText" ? String(n.name?.value ?? "") : "";
    return (n.childIds ?? []).map((c) => byId.get(c)).filter((c): c is AXNode => !!c && !c.ignored).map(text).join("");
  };
  return nodes.filter((n) => !n.ignored && isLive(n) && !isLive(byId.get(n.parentId ?? ""))).map((n) => ({ id: n.backendDOMNodeId, live: String(prop(n, "live")), text: text(n) }));
}

/** axFocused is the role and name of the element that has focus in the accessibility tree (the document itself says it is focused too). */
async function axFocused(page: Page): Promise<{ role: string; name: string } | undefined> {
  const n = (await axTree(page)).find((x) => prop(x, "focused") === true && x.role?.value !== "RootWebArea");
  return n && { role: String(n.role?.value), name: String(n.name?.value ?? "") };
}

const activeElement = (page: Page) => page.evaluate(() => {
  const el = document.activeElement;
  return el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}` : "";
});

/** The document title of a console screen: the screen, the console, the studio. */
const title = (screen: string) => `${screen} | ${consoleMeta.title} | ${site.name}`;

async function submitContact(page: Page, name: string) {
  const res = await page.request.post(`${studio.base}/functions/v1/submit-contact`, {
    data: { name, email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`, company: null, phone: null, message: `Hello from ${name}` },
  });
  expect(res.status()).toBe(200);
}

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test("10: each search says its count, or that nothing matches, in one polite live region that stays in the page", async ({ browser }) => {
      const page = await newPage(browser, width);
      const tag = `Quill${Date.now().toString(36)}${width}`;
      await submitContact(page, `${tag} Ames`);
      await signIn(page, studio, addStaff("Lin"), { fromCli: true });
      await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();
      const box = page.getByRole("searchbox", { name: inboxCopy.searchLabel });
      const announced = async (text: string) => {
        let found: { id?: number; live: string; text: string } | undefined;
        await expect.poll(async () => (found = (await liveRegions(page)).find((r) => r.text.includes(text)))?.live, { message: `a live region says "${text}"` }).toBe("polite");
        return found!;
      };

      await box.fill(tag);
      const match = await announced(listCopy.status(1, 1, 1, tag));
      await box.fill(`zzz-${tag}`);
      const none = await announced(inboxCopy.empty.search(`zzz-${tag}`).title);
      expect(none.text).toContain(inboxCopy.empty.search(`zzz-${tag}`).text);
      // The same region, present before the empty result and after it: a region that comes with its text is not announced.
      expect(none.id).toBe(match.id);
      await page.getByRole("button", { name: listCopy.clearSearch }).click();
      await expect.poll(async () => (await liveRegions(page)).find((r) => r.id === match.id)?.text).toMatch(/^\d+ results?/);
      await box.fill(tag);
      expect((await announced(listCopy.status(1, 1, 1, tag))).id).toBe(match.id);
    });

    test("11: focus goes to the console's heading after the sign-in code, to the code field after Set up an authenticator, and to the list's heading after Confirm", async ({ browser }) => {
      test.setTimeout(90_000);
      const page = await newPage(browser, width);
      await signIn(page, studio, addStaff("Kay"));
      await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();
      await expect.poll(() => activeElement(page)).toBe("h1#screen-title");
      expect(await axFocused(page)).toEqual({ role: "heading", name: inboxCopy.title });

      await page.getByRole("link", { name: consoleNav.find((n) => n.screen === "account")!.label }).click();
      await page.getByRole("button", { name: accountCopy.mfa.start }).click();
      const enrolment = page.getByTestId("totp-enrolment");
      await expect(enrolment).toBeVisible();
      await expect.poll(() => activeElement(page)).toBe("input#totp-enrol-code");
      expect(await axFocused(page)).toEqual({ role: "textbox", name: accountCopy.mfa.codeLabel });

      const secret = (await enrolment.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
      await page.keyboard.type(await freshTotp(secret));
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("factor-list")).toBeVisible();
      await expect.poll(() => activeElement(page)).toBe("h2#mfa-title");
      expect(await axFocused(page)).toEqual({ role: "heading", name: accountCopy.mfa.title });
    });

    test("12: the e-mail code, the authenticator's set-up code and the two-step code keep their 6 digits when pasted or typed with spaces and dashes", async ({ browser }) => {
      test.setTimeout(120_000);
      const page = await newPage(browser, width);
      const email = addStaff("Noor");
      await page.goto(`${studio.base}/admin`);
      const seen = studio.smtp.mails.length;
      await page.getByLabel(signInCopy.emailLabel).fill(email);
      await page.getByRole("button", { name: signInCopy.send }).click();
      const { code } = await mailedSignIn(studio, email, seen);
      const field = page.getByLabel(signInCopy.codeLabel);
      await expect(field).toBeFocused();
      // The mail shows the code on an indented line: pasted with its indent.
      await page.keyboard.insertText(`    ${code}`);
      await expect(field).toHaveValue(code);
      await field.fill("");
      await page.keyboard.type(` ${code.slice(0, 3)} ${code.slice(3)} `);
      await expect(field).toHaveValue(code);
      await field.fill("");
      await page.keyboard.insertText(`${code.slice(0, 3)}-${code.slice(3)}`);
      await expect(field).toHaveValue(code);
      // Too short: the field says how many digits it wants.
      await field.fill("");
      await page.keyboard.insertText("12 34");
      await field.press("Enter");
      await expect(page.getByText(signInCopy.errors.code)).toBeVisible();
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await field.fill("");
      await page.keyboard.insertText(` ${code.slice(0, 3)} ${code.slice(3)} `);
      await field.press("Enter");
      await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();

      await page.getByRole("link", { name: consoleNav.find((n) => n.screen === "account")!.label }).click();
      await page.getByRole("button", { name: accountCopy.mfa.start }).click();
      const enrolment = page.getByTestId("totp-enrolment");
      const secret = (await enrolment.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
      const enrolCode = enrolment.getByLabel(accountCopy.mfa.codeLabel);
      const first = await freshTotp(secret);
      await enrolCode.focus();
      await page.keyboard.insertText(`  ${first.slice(0, 3)} ${first.slice(3)}  `);
      await expect(enrolCode).toHaveValue(first);
      await enrolment.getByRole("button", { name: accountCopy.mfa.confirm }).click();
      await expect(page.getByTestId("factor-list")).toBeVisible();

      await page.getByRole("button", { name: accountCopy.signOut.here }).click();
      await signIn(page, studio, email, { fromCli: true });
      await expect(page.getByRole("heading", { name: mfaCopy.title })).toBeVisible();
      const second = await freshTotp(secret);
      const check = page.getByLabel(mfaCopy.codeLabel);
      await check.focus();
      await page.keyboard.insertText(`\t${second.slice(0, 3)}-${second.slice(3)} `);
      await expect(check).toHaveValue(second);
      await page.getByRole("button", { name: mfaCopy.verify }).click();
      await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();
    });

    test("14: the header shows every link whole at this width (WCAG 1.4.10), each reached by Tab and big enough to hit, and hides no focus (2.4.11)", async ({ browser }) => {
      const page = await newPage(browser, width);
      await signIn(page, studio, addStaff("Noor"), { fromCli: true });
      const header = page.getByRole("banner");
      const links = [consoleShell.name, ...consoleNav.map((n) => n.label), consoleShell.backToSite];
      // Back from the screen's heading, where sign-in leaves focus, to the skip link.
      await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
      const reached = new Set<string>();
      for (let i = 0; i < 20 && !(await page.getByRole("link", { name: consoleShell.skip }).evaluate((el) => el === document.activeElement)); i++) {
        await page.keyboard.press("Shift+Tab");
        reached.add(await page.evaluate(() => (document.activeElement?.closest("header") ? (document.activeElement?.textContent ?? "").trim() : "")));
      }
      for (const name of links) {
        const link = header.getByRole("link", { name: new RegExp(`^${name}\\b`) }); // the Inbox's says its open count too
        await expect(link, name).toBeVisible();
        const { left, right, width: w, height: h, shown } = await link.evaluate((el) => ({ ...el.getBoundingClientRect().toJSON(), shown: window.innerWidth }));
        expect(Math.min(w, h), `${name}: ${w}×${h}`).toBeGreaterThanOrEqual(24);
        expect(left >= 0 && right <= shown, `${name} within the page's width (${left}–${right} of ${shown})`).toBe(true);
        expect([...reached].some((text) => text.includes(name)), `${name} reached by Tab: ${[...reached].join(" | ")}`).toBe(true);
      }
      // What gets focus, or is scrolled to, stops below the sticky header (WCAG 2.4.11).
      const { padding, height } = await header.evaluate((el) => ({ padding: parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop), height: el.getBoundingClientRect().height }));
      expect(padding, `scroll padding under a header ${height} px tall`).toBeGreaterThanOrEqual(height);
      await header.getByRole("link", { name: consoleShell.backToSite }).click();
      await expect(page).toHaveURL(`${studio.base}/`);
    });

    test("13: the document title names the screen: sign-in, check your mail, each console screen and a message's sender", async ({ browser }) => {
      const page = await newPage(browser, width);
      const sender = `Ines ${Date.now().toString(36)}${width}`;
      await submitContact(page, sender);
      const email = addStaff("Rui");
      await page.goto(`${studio.base}/admin`);
      await expect(page.getByRole("heading", { name: signInCopy.title })).toBeVisible();
      await expect(page).toHaveTitle("Sign in | Staff console | Meridian Studio");
      await page.getByLabel(signInCopy.emailLabel).fill(email);
      await page.getByRole("button", { name: signInCopy.send }).click();
      await expect(page).toHaveTitle(title(signInCopy.checkMail.title));
      await signIn(page, studio, email, { fromCli: true });
      await expect(page).toHaveTitle("Inbox | Staff console | Meridian Studio");

      await page.getByTestId("message-list").getByRole("link", { name: new RegExp(sender) }).click();
      await expect(page.getByRole("heading", { level: 1, name: sender })).toBeVisible();
      await expect(page).toHaveTitle(title(messageCopy.documentTitle(sender)));
      await page.getByRole("link", { name: messageCopy.back }).click();
      await expect(page).toHaveTitle(title(inboxCopy.title));
      for (const item of consoleNav) {
        await page.getByRole("navigation", { name: consoleShell.navLabel }).getByRole("link", { name: item.label }).click();
        await expect(page).toHaveTitle(title(item.label));
      }
      await page.goto(`${studio.base}/admin/no-such-screen`);
      await expect(page).toHaveTitle(title(consoleShell.notFound.title));
    });
  });
}

// Not a screen of its own, but the check between sign-in and the console is named too.
test("13: the two-step check's title names it", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await newPage(browser, 1280);
  const email = addStaff("Ola");
  await signIn(page, studio, email, { fromCli: true });
  await page.getByRole("link", { name: consoleNav.find((n) => n.screen === "account")!.label }).click();
  await page.getByRole("button", { name: accountCopy.mfa.start }).click();
  const enrolment = page.getByTestId("totp-enrolment");
  const secret = (await enrolment.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  await enrolment.getByLabel(accountCopy.mfa.codeLabel).fill(await freshTotp(secret));
  await enrolment.getByRole("button", { name: accountCopy.mfa.confirm }).click();
  await expect(page.getByTestId("factor-list")).toBeVisible();
  await page.getByRole("button", { name: accountCopy.signOut.here }).click();
  await expect(page).toHaveTitle(title(signInCopy.documentTitle));
  await signIn(page, studio, email, { fromCli: true });
  await expect(page).toHaveTitle(title(mfaCopy.title));
  await passTwoStep(page, secret);
  await expect(page).toHaveTitle(title(inboxCopy.title));
});

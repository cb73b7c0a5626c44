/**
 * The console's Files screen (/admin/files) against a studio server of its
 * own: staff upload with a progress bar, replace, move, share and delete
 * files of storage/v1, and the site's public template download serves the
 * file replaced through the screen.
 */
import { test, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { filesCopy, signInCopy } from "../app/content/console";
import { signIn, startStudio, type Studio } from "./staff-console";
import { expectNoAxeViolations } from "./axe";

const TEMPLATE = "saas-financial-model.csv";
/** A 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

let studio: Studio;
/** A signed-in staff member's browser state, shared by the tests. */
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000); // a first start migrates a new store: slow on a loaded machine
  // The live channel checks its session every hour here, not every second: an ended session is found by the Files screen's own requests.
  studio = await startStudio(["--session-check", "1h"]);
  const email = `files+${Date.now().toString(36)}@studio.test`;
  expect(studio.cli("staff", "add", email, "--name", "Files")).toContain(`added ${email}`);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, studio, email, { fromCli: true });
  signedIn = await context.storageState();
  await context.close();
});

test.afterAll(async () => {
  await studio?.stop();
});

async function newPage(browser: Browser, { width = 1280, theme = "light" } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, reducedMotion: "reduce", storageState: signedIn });
  await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
  return context.newPage();
}

/** storageFetch calls storage/v1 from the page with the signed-in session, as supabase-js would. */
async function storageFetch(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = JSON.parse(localStorage.getItem("studio-console-auth") ?? "{}") as { access_token?: string };
      const config = (await (await fetch("/admin/config.json")).json()) as { anonKey: string };
      const res = await fetch(`/storage/v1/${path}`, {
        method,
        headers: { Authorization: `Bearer ${session.access_token}`, apikey: config.anonKey, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: await res.json().catch(() => null) };
    },
    { method, path, body },
  );
}

const heading = (page: Page) => page.getByRole("heading", { level: 1, name: filesCopy.title });
const fileButton = (page: Page, name: string) => page.getByRole("button", { name, exact: true });
const details = (page: Page) => page.getByRole("dialog");
const uploadRow = (page: Page, name: string) => page.getByTestId("upload").filter({ hasText: name });

/** openBucket goes to a bucket from the navigation, as staff would. */
async function openBucket(page: Page, bucket: string) {
  await page.goto(`${studio.base}/admin`);
  await page.getByRole("link", { name: "Files", exact: true }).click();
  await expect(heading(page)).toBeVisible();
  await page.getByTestId("bucket-list").getByRole("link", { name: new RegExp(`^${bucket}`) }).click();
  await expect(page.getByRole("navigation", { name: filesCopy.breadcrumbsLabel }).getByText(bucket)).toHaveAttribute("aria-current", "page");
}

test("upload with a progress bar, refuse a duplicate then replace it, move it into a folder, and delete it", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await newPage(browser);
  await openBucket(page, "downloads");
  await expect(page.getByTestId("bucket-visibility")).toHaveText(filesCopy.public);
  await expect(fileButton(page, TEMPLATE)).toBeVisible();

  // A slow upload link, so the bar is seen between its ends.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
  const name = `upload-${Date.now().toString(36)}.txt`;
  const bytes = Buffer.alloc(3 * 1024 * 1024, "a");
  await page.getByTestId("upload-input").setInputFiles({ name, mimeType: "text/plain", buffer: bytes });
  const bar = page.getByRole("progressbar", { name: filesCopy.progressLabel(name) });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute("value", /^[1-9][0-9]?$/); // part of the way
  await expect(uploadRow(page, name)).toHaveAttribute("data-state", "done", { timeout: 30_000 });
  await expect(bar).toHaveAttribute("value", "100");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(fileButton(page, name)).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("3 MB");

  // The same name again is refused in the server's words, and can replace the first on request.
  await page.getByTestId("upload-input").setInputFiles({ name, mimeType: "text/plain", buffer: Buffer.from("second version") });
  await expect(uploadRow(page, name)).toHaveAttribute("data-state", "failed");
  await expect(uploadRow(page, name)).toContainText(filesCopy.refusals.exists);
  await expect(uploadRow(page, name)).toContainText(filesCopy.serverSaid("The resource already exists"));
  await uploadRow(page, name).getByRole("button", { name: filesCopy.replaceExisting }).click();
  await expect(uploadRow(page, name)).toHaveAttribute("data-state", "done");
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("14 B");

  // Move it into a folder: the folder appears, and the file is inside.
  await fileButton(page, name).click();
  await details(page).getByLabel(filesCopy.move.label).fill(`archive/${name}`);
  await details(page).getByRole("button", { name: filesCopy.move.submit }).click();
  await expect(details(page)).toHaveCount(0);
  await expect(fileButton(page, name)).toHaveCount(0);
  await page.getByRole("link", { name: "archive" }).click();
  await expect(page).toHaveURL(/\/admin\/files\/downloads\/archive$/);
  await expect(page.getByRole("navigation", { name: filesCopy.breadcrumbsLabel }).getByText("archive")).toHaveAttribute("aria-current", "page");

  // Delete it, confirmed: gone from the list and from the public address.
  await fileButton(page, name).click();
  page.once("dialog", (d) => {
    expect(d.message()).toBe(filesCopy.remove.confirm(`archive/${name}`));
    void d.accept();
  });
  await details(page).getByRole("button", { name: filesCopy.remove.action }).click();
  await expect(page.getByText(filesCopy.remove.done(`archive/${name}`))).toBeVisible();
  await expect(page.getByText(filesCopy.empty.title)).toBeVisible();
  const gone = await page.request.get(`${studio.base}/storage/v1/object/public/downloads/archive/${name}`);
  expect(gone.ok()).toBe(false);
  // Back up through the breadcrumbs.
  await page.getByRole("navigation", { name: filesCopy.breadcrumbsLabel }).getByRole("link", { name: "downloads" }).click();
  await expect(fileButton(page, TEMPLATE)).toBeVisible();
});

test("replace a site template through the screen: the public download serves it; copy its public and signed links", async ({ browser }) => {
  const page = await newPage(browser);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: studio.base });
  await openBucket(page, "downloads");
  const publicUrl = `${studio.base}/storage/v1/object/public/downloads/${TEMPLATE}`;
  expect(await (await page.request.get(publicUrl)).text()).not.toContain("replaced through the console");

  await fileButton(page, TEMPLATE).click();
  await expect(details(page).getByRole("heading", { name: TEMPLATE })).toBeVisible();
  const csv = `Month,MRR\nJanuary,1000\n# replaced through the console ${Date.now()}\n`;
  await details(page).getByTestId("replace-input").setInputFiles({ name: "model-v2.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(details(page).getByTestId("upload")).toHaveAttribute("data-state", "done");
  await expect(details(page).getByTestId("file-size")).toHaveText(`${Buffer.byteLength(csv)} B`);
  // The public download, as the resource pages link it, serves the new bytes at once.
  const served = await page.request.get(`${publicUrl}?download`);
  expect(served.status()).toBe(200);
  expect(await served.text()).toBe(csv);

  // The public link: shown, and copied.
  await expect(details(page).getByTestId("public-link")).toHaveValue(publicUrl);
  await details(page).getByTestId("public-link").locator("..").getByRole("button", { name: filesCopy.links.copy }).click();
  await expect(details(page).getByText(filesCopy.links.copied)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(publicUrl);

  // A signed link for a day: it serves the file.
  await details(page).getByLabel(filesCopy.links.expiryLabel).selectOption({ label: "1 day" });
  await details(page).getByRole("button", { name: filesCopy.links.create }).click();
  const signed = details(page).getByTestId("signed-link");
  await expect(signed).toHaveValue(new RegExp(`^${studio.base}/storage/v1/object/sign/downloads/${TEMPLATE}\\?token=`));
  await signed.locator("..").getByRole("button", { name: filesCopy.links.copy }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await signed.inputValue());
  const token = new URL(copied).searchParams.get("token")!;
  const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { exp: number; iat: number };
  expect(claims.exp - claims.iat).toBe(86_400);
  expect(await (await page.request.get(copied)).text()).toBe(csv);

  await page.keyboard.press("Escape");
  await expect(details(page)).toHaveCount(0);

  // Its whole public downloads (the two public GETs above; a signed link's is not one) are
  // counted and written every 5 s: the list shows them once reloaded.
  const row = page.getByRole("row").filter({ has: fileButton(page, TEMPLATE) });
  await expect(page.getByRole("columnheader", { name: filesCopy.columns.downloads })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(row.getByRole("cell").last()).toHaveText(/(^|:)2$/, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
});

test("a private bucket: drop a file to upload it, see an image's preview, and read each refusal in full", async ({ browser }) => {
  const page = await newPage(browser, { width: 375, theme: "dark" });
  await page.goto(`${studio.base}/admin`);
  const bucket = `private-${Date.now().toString(36)}`;
  const made = await storageFetch(page, "POST", "bucket", { name: bucket, public: false, file_size_limit: 1024, allowed_mime_types: ["image/png", "text/plain"] });
  expect(made.status).toBe(200);
  await openBucket(page, bucket);
  await expect(page.getByTestId("bucket-visibility")).toHaveText(filesCopy.private);
  await expect(page.getByText(filesCopy.empty.title)).toBeVisible();

  // Drag and drop an image onto the folder.
  const dataTransfer = await page.evaluateHandle((png) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(png)], "pixel.png", { type: "image/png" }));
    return dt;
  }, [...PNG]);
  await page.getByTestId("drop-zone").dispatchEvent("dragover", { dataTransfer });
  await expect(page.getByText(filesCopy.dropNow)).toBeVisible();
  await page.getByTestId("drop-zone").dispatchEvent("drop", { dataTransfer });
  await expect(uploadRow(page, "pixel.png")).toHaveAttribute("data-state", "done");
  await fileButton(page, "pixel.png").click();
  const preview = details(page).getByRole("img", { name: filesCopy.details.preview("pixel.png") });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  // A private bucket has no public link.
  await expect(details(page).getByTestId("public-link")).toHaveCount(0);
  await details(page).getByRole("button", { name: filesCopy.close }).click();

  // Too large, and a type the bucket does not take: what it means, and what the server said.
  await page.getByTestId("upload-input").setInputFiles([
    { name: "big.txt", mimeType: "text/plain", buffer: Buffer.alloc(2048, "b") },
    { name: "page.html", mimeType: "text/html", buffer: Buffer.from("<script>alert(1)</script>") },
  ]);
  await expect(uploadRow(page, "big.txt")).toContainText(filesCopy.refusals.tooLarge);
  await expect(uploadRow(page, "big.txt")).toContainText(filesCopy.serverSaid("The object exceeded the maximum allowed size"));
  await expect(uploadRow(page, "page.html")).toContainText(filesCopy.refusals.typeNotAllowed);
  await expect(uploadRow(page, "page.html")).toContainText(filesCopy.serverSaid("mime type text/html is not supported"));
  await expect(fileButton(page, "big.txt")).toHaveCount(0);
});

test("the Files screen has no axe violations at 1280 and 375 px, light and dark", async ({ browser }) => {
  test.setTimeout(180_000);
  for (const width of [1280, 375]) {
    for (const theme of ["light", "dark"]) {
      const page = await newPage(browser, { width, theme });
      const where = `${width}px ${theme}`;
      await page.goto(`${studio.base}/admin/files`);
      await expect(page.getByTestId("bucket-list")).toBeVisible();
      await expectNoAxeViolations(page, `buckets ${where}`);
      await page.goto(`${studio.base}/admin/files/downloads`);
      await expect(fileButton(page, TEMPLATE)).toBeVisible();
      await page.getByTestId("upload-input").setInputFiles({ name: `axe-${width}-${theme}.txt`, mimeType: "text/plain", buffer: Buffer.from("axe") });
      await expect(uploadRow(page, `axe-${width}-${theme}.txt`)).toHaveAttribute("data-state", "done");
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await expectNoAxeViolations(page, `folder ${where}`);
      await fileButton(page, TEMPLATE).click();
      await details(page).getByRole("button", { name: filesCopy.links.create }).click();
      await expect(details(page).getByTestId("signed-link")).toBeVisible();
      await expectNoAxeViolations(page, `details ${where}`);
      await page.context().close();
    }
  }
});

test("a session that ended elsewhere sends the Files screen to sign-in", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  const email = `files-ended+${Date.now().toString(36)}@studio.test`;
  expect(studio.cli("staff", "add", email, "--name", "Ended")).toContain(`added ${email}`);
  await signIn(page, studio, email, { fromCli: true });
  await page.getByRole("link", { name: "Files", exact: true }).click();
  await expect(page.getByTestId("bucket-list")).toBeVisible();
  // Signed out everywhere by another client: this tab still holds the tokens.
  const status = await page.evaluate(async () => {
    const session = JSON.parse(localStorage.getItem("studio-console-auth") ?? "{}") as { access_token?: string };
    const { anonKey } = (await (await fetch("/admin/config.json")).json()) as { anonKey: string };
    const res = await fetch("/auth/v1/logout?scope=global", { method: "POST", headers: { Authorization: `Bearer ${session.access_token}`, apikey: anonKey } });
    return res.status;
  });
  expect(status).toBe(204);
  await page.getByTestId("bucket-list").getByRole("link", { name: /^downloads/ }).click();
  await expect(page.getByRole("heading", { name: signInCopy.title })).toBeVisible();
  await expect(page.getByText(signInCopy.expired)).toBeVisible();
});

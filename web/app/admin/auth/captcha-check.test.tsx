import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { SupabaseClient } from "@supabase/supabase-js";
import { signInCopy } from "~/content/console";
import { ConfirmLink, nextToken, withCaptcha } from "./captcha-check";
import { SignIn } from "./sign-in";

// Single sign-on starts on a PKCE twin of the client: here, the fake client itself.
vi.mock("./federated", async (importOriginal) => ({ ...(await importOriginal<typeof import("./federated")>()), pkceTwin: (c: SupabaseClient) => c }));

describe("withCaptcha", () => {
  it("adds the token as options.captchaToken, keeping the other options", () => {
    expect(withCaptcha({ email: "a@b.c", options: { shouldCreateUser: false } }, "t1")).toEqual({ email: "a@b.c", options: { shouldCreateUser: false, captchaToken: "t1" } });
    expect(withCaptcha({ token_hash: "h", type: "email" }, "t2")).toEqual({ token_hash: "h", type: "email", options: { captchaToken: "t2" } });
  });

  it("leaves the parameters as they are without a token", () => {
    const params = { email: "a@b.c", token: "123456", type: "email" };
    expect(withCaptcha(params, undefined)).toBe(params);
  });
});

describe("nextToken", () => {
  it("needs nothing without a CAPTCHA, the token with one, and refuses to send before the check", () => {
    expect(nextToken(false, "")).toEqual({});
    expect(nextToken(true, "t1")).toEqual({ token: "t1" });
    expect(nextToken(true, "")).toBeNull();
  });
});

/** markCaptchaOn puts the marker the server writes into /admin with a provider (internal/site/captcha.go) into the test document. */
function markCaptchaOn() {
  const meta = document.createElement("meta");
  meta.name = "studio-captcha";
  meta.content = "on";
  meta.dataset.provider = "hcaptcha";
  meta.dataset.siteKey = "site-key-1";
  meta.dataset.scriptUrl = "/widget.js";
  document.head.append(meta);
}

function markCaptchaOff() {
  document.head.querySelector('meta[name="studio-captcha"]')?.remove();
}

/** The widget's script as the page loads it: a fake of hCaptcha's explicit-render API, whose button passes the check. */
function fakeWidget() {
  let issued = 0;
  const api = {
    render: vi.fn((el: HTMLElement, opts: { sitekey: string; callback: (t: string) => void }) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = "I am a person";
      b.onclick = () => opts.callback(`token-${++issued}`);
      el.replaceChildren(b);
      return issued;
    }),
    reset: vi.fn(),
  };
  return api;
}

/** loadScript answers the widget's script tag that the page added: loaded with api, or failed. */
async function loadScript(api: ReturnType<typeof fakeWidget> | "fail") {
  const script = await waitFor(() => {
    const s = document.head.querySelector<HTMLScriptElement>('script[src*="widget.js"]');
    if (!s) throw new Error("no widget script yet");
    return s;
  });
  script.remove();
  if (api === "fail") {
    script.dispatchEvent(new Event("error"));
    return;
  }
  (window as unknown as { hcaptcha: unknown }).hcaptcha = api;
  script.dispatchEvent(new Event("load"));
}

function fakeClient(answers: { otp?: unknown; verify?: unknown[] } = {}) {
  const verify = [...(answers.verify ?? [])];
  const auth = {
    signInWithOtp: vi.fn(async () => ({ data: { user: null, session: null }, error: answers.otp ?? null })),
    verifyOtp: vi.fn(async () => ({ data: { user: null, session: null }, error: verify.shift() ?? null })),
    signInWithSSO: vi.fn(async () => ({ data: null, error: { status: 404, code: "sso_provider_not_found", message: "No SSO provider assigned for this domain" } })),
  };
  return { client: { auth } as unknown as SupabaseClient, auth };
}

/** showWidget waits for the widget: the page loads its script once, so a later screen shows it at once. */
async function showWidget() {
  if (document.head.querySelector('script[src*="widget.js"]')) await loadScript(fakeWidget());
  await screen.findByRole("button", { name: "I am a person" });
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const pass = () => fireEvent.click(screen.getByRole("button", { name: "I am a person" }));

describe("the sign-in with a CAPTCHA", () => {
  beforeEach(() => {
    localStorage.clear();
    markCaptchaOn();
  });
  afterEach(markCaptchaOff);

  it("says when the widget cannot load, and sends nothing", async () => {
    const { client, auth } = fakeClient();
    render(<SignIn client={client} />);
    expect(await screen.findByText(signInCopy.captcha.loading)).toBeTruthy();
    await loadScript("fail");
    expect(await screen.findByText(signInCopy.captcha.failed)).toBeTruthy();
    type(signInCopy.emailLabel, "ada@studio.test");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.send }));
    expect(auth.signInWithOtp).not.toHaveBeenCalled();
  });

  it("sends nothing before the check, then a fresh token with each call: the code, a new code, and checking it", async () => {
    const { client, auth } = fakeClient({ verify: [{ status: 400, code: "captcha_failed", message: "captcha protection: request disallowed" }] });
    const widget = fakeWidget();
    render(<SignIn client={client} />);
    expect(await screen.findByText(signInCopy.captcha.loading)).toBeTruthy();
    type(signInCopy.emailLabel, "ada@studio.test");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.send }));
    expect(await screen.findByText(signInCopy.captcha.missing)).toBeTruthy();
    expect(auth.signInWithOtp).not.toHaveBeenCalled();

    await loadScript(widget);
    pass();
    expect(screen.queryByText(signInCopy.captcha.missing)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: signInCopy.send }));
    expect(await screen.findByRole("heading", { name: signInCopy.checkMail.title })).toBeTruthy();
    expect(auth.signInWithOtp).toHaveBeenCalledWith({
      email: "ada@studio.test",
      options: { shouldCreateUser: false, emailRedirectTo: `${location.origin}/admin`, captchaToken: "token-1" },
    });
    expect(widget.reset).toHaveBeenCalledTimes(1);

    // The code screen shows the widget again, unpassed: the spent token is not sent twice.
    type(signInCopy.codeLabel, "123456");
    fireEvent.click(await screen.findByRole("button", { name: signInCopy.verify }));
    expect(await screen.findByText(signInCopy.captcha.missing)).toBeTruthy();
    expect(auth.verifyOtp).not.toHaveBeenCalled();

    pass();
    fireEvent.click(screen.getByRole("button", { name: signInCopy.resend }));
    await waitFor(() => expect(auth.signInWithOtp).toHaveBeenCalledTimes(2));
    expect(auth.signInWithOtp).toHaveBeenLastCalledWith(expect.objectContaining({ options: expect.objectContaining({ captchaToken: "token-2" }) }));

    pass();
    fireEvent.click(screen.getByRole("button", { name: signInCopy.verify }));
    await waitFor(() => expect(auth.verifyOtp).toHaveBeenCalledWith({ email: "ada@studio.test", token: "123456", type: "email", options: { captchaToken: "token-3" } }));
    expect(await screen.findByText(signInCopy.captcha.refused)).toBeTruthy();
    expect(widget.reset).toHaveBeenCalledTimes(3);
  });
});

describe("single sign-on with a CAPTCHA", () => {
  beforeEach(markCaptchaOn);
  afterEach(markCaptchaOff);

  it("starts only after the check, with its token", async () => {
    const settings = { external: { email: true }, saml_enabled: true };
    const fetchMock = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify(settings), { status: 200 }));
    const { client, auth } = fakeClient();
    render(<SignIn client={client} />);
    fireEvent.click(await screen.findByRole("button", { name: signInCopy.sso.start }));
    await showWidget();
    type(signInCopy.emailLabel, "ada@studio.test");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.sso.submit }));
    expect(await screen.findByText(signInCopy.captcha.missing)).toBeTruthy();
    expect(auth.signInWithSSO).not.toHaveBeenCalled();

    pass();
    fireEvent.click(screen.getByRole("button", { name: signInCopy.sso.submit }));
    await waitFor(() =>
      expect(auth.signInWithSSO).toHaveBeenCalledWith({ domain: "studio.test", options: { redirectTo: `${location.origin}/admin`, captchaToken: expect.stringMatching(/^token-/) } }),
    );
    expect(await screen.findByText(signInCopy.sso.notFound)).toBeTruthy();
    fetchMock.mockRestore();
  });
});

describe("ConfirmLink", () => {
  beforeEach(markCaptchaOn);
  afterEach(markCaptchaOff);

  const link = { token_hash: "pkce_abc", type: "magiclink" as const };

  it("verifies the link only after the check, with its token; a refused token asks for the check again", async () => {
    const { client, auth } = fakeClient({ verify: [{ status: 400, code: "captcha_failed", message: "captcha protection" }, null] });
    const onDone = vi.fn();
    render(<ConfirmLink client={client} link={link} onDone={onDone} onCancel={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: signInCopy.confirmLink.submit }));
    expect(await screen.findByText(signInCopy.captcha.missing)).toBeTruthy();
    expect(auth.verifyOtp).not.toHaveBeenCalled();

    await showWidget();
    pass();
    fireEvent.click(screen.getByRole("button", { name: signInCopy.confirmLink.submit }));
    expect(await screen.findByText(signInCopy.captcha.refused)).toBeTruthy();
    expect(auth.verifyOtp).toHaveBeenCalledWith({ ...link, options: { captchaToken: expect.stringMatching(/^token-/) } });
    expect(onDone).not.toHaveBeenCalled();

    pass();
    fireEvent.click(screen.getByRole("button", { name: signInCopy.confirmLink.submit }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(true));
  });

  it("ends a link the server refuses", async () => {
    const { client } = fakeClient({ verify: [{ status: 403, code: "otp_expired", message: "Email link is invalid or has expired" }] });
    const onDone = vi.fn();
    render(<ConfirmLink client={client} link={link} onDone={onDone} onCancel={() => {}} />);
    await showWidget();
    pass();
    fireEvent.click(screen.getByRole("button", { name: signInCopy.confirmLink.submit }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(false));
  });
});

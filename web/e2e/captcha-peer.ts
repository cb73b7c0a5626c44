/**
 * A CAPTCHA provider on a loopback port, for the end-to-end tests with a
 * CAPTCHA (captcha-forms.spec.ts, admin-captcha.spec.ts): a fake widget
 * script in hCaptcha's explicit-render shape, whose button passes the check
 * with a fresh token, and a siteverify that accepts each such token once,
 * sent with the secret. Nothing leaves the machine.
 */
import { createServer } from "node:http";

/** The fake widget: hCaptcha's explicit-render API; its button passes the check. */
const widgetScript = `window.hcaptcha = {
  render(el, opts) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "I am a person";
    b.onclick = () => { b.textContent = "Passed"; opts.callback("fake-" + Math.random().toString(36).slice(2)); };
    el.append(b);
    window.__captchaSiteKey = opts.sitekey;
    return 1;
  },
  reset() { document.querySelectorAll("[data-captcha-widget] button").forEach((b) => (b.textContent = "I am a person")); },
};`;

/** The widget's button before and after the check. */
export const widgetLabels = { check: "I am a person", passed: "Passed" };

export type CaptchaPeer = {
  base: string;
  /** The tokens siteverify was asked about, in order, and whether each was accepted. */
  verified: { token: string; ok: boolean }[];
  /** The flags that make a studio use this peer. */
  studioArgs: string[];
  close: () => void;
};

export async function startCaptchaPeer(): Promise<CaptchaPeer> {
  const used = new Set<string>();
  const verified: CaptchaPeer["verified"] = [];
  const peer = createServer(async (req, res) => {
    if (req.url?.startsWith("/widget.js")) {
      res.writeHead(200, { "Content-Type": "text/javascript" }).end(widgetScript);
      return;
    }
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const form = new URLSearchParams(raw);
    const token = form.get("response") ?? "";
    const ok = form.get("secret") === "fake-secret" && token.startsWith("fake-") && !used.has(token);
    used.add(token);
    verified.push({ token, ok });
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ success: ok }));
  });
  await new Promise<void>((ok) => peer.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${(peer.address() as { port: number }).port}`;
  return {
    base,
    verified,
    studioArgs: ["--captcha-provider", "hcaptcha", "--captcha-secret", "fake-secret", "--captcha-site-key", "site-key-1",
      "--captcha-verify-url", `${base}/siteverify`, "--captcha-script-url", `${base}/widget.js`],
    close: () => peer.close(),
  };
}

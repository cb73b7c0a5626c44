/**
 * The CAPTCHA widget of the public forms (with the server's --captcha-forms)
 * and of the console's sign-in (with any --captcha-provider; admin/auth/captcha-check.tsx):
 * the page's head carries <meta name="studio-captcha">, "on" with the
 * widget's provider, site key and script when the server asks for one
 * (internal/site/captcha.go), "off" otherwise. The public forms load the
 * widget's script only when the visitor starts filling a form in (no script
 * before the first input), and send its token as captcha_token. A form
 * posted without JavaScript has no token: the form says so.
 */
import { useEffect, useRef, useState } from "react";
import rules from "../../../internal/form/rules.json" with { type: "json" };

export type CaptchaSettings = { provider: string; siteKey: string; scriptUrl: string };

/** captchaSettings reads the page's marker: null when the forms need no CAPTCHA. */
export function captchaSettings(): CaptchaSettings | null {
  const m = typeof document === "undefined" ? null : document.querySelector<HTMLMetaElement>('meta[name="studio-captcha"]');
  if (m?.content !== "on") return null;
  return { provider: m.dataset.provider ?? "", siteKey: m.dataset.siteKey ?? "", scriptUrl: m.dataset.scriptUrl ?? "" };
}

/** The part of hCaptcha's and Turnstile's APIs the forms use (both the same). */
type WidgetApi = {
  render(el: HTMLElement, options: Record<string, unknown>): string | number;
  reset(id?: string | number): void;
};

let loading: Promise<WidgetApi> | null = null;

/** loadWidget loads the widget's script once (render=explicit) and resolves with its API. */
function loadWidget(s: CaptchaSettings): Promise<WidgetApi> {
  loading ??= new Promise<WidgetApi>((resolve, reject) => {
    const url = new URL(s.scriptUrl, location.href);
    url.searchParams.set("render", "explicit");
    const script = document.createElement("script");
    script.src = url.toString();
    script.async = true;
    script.onload = () => {
      const api = (window as unknown as Record<string, WidgetApi | undefined>)[s.provider === "turnstile" ? "turnstile" : "hcaptcha"];
      if (api) resolve(api);
      else reject(new Error("the CAPTCHA script defined no widget"));
    };
    script.onerror = () => {
      loading = null; // a later try may load it
      reject(new Error("the CAPTCHA script did not load"));
    };
    document.head.append(script);
  });
  return loading;
}

/** The messages: the server's own (internal/form/rules.json). */
export const captchaMessages = { missing: rules.errors.captcha, noScript: rules.problems.captcha };

/**
 * useCaptcha is a form's CAPTCHA: required when the page says so; start()
 * (on the first input) loads and shows the widget in box (a ref: when
 * another element takes it, as a screen of several steps changes, the
 * widget shows again there, unpassed); shown once the widget is on the
 * page, failed when its script could not load; token is the widget's
 * answer, "" until the visitor passed; reset() after each call (a token
 * works once).
 */
export function useCaptcha() {
  const [settings, setSettings] = useState<CaptchaSettings | null>(null);
  const [started, setStarted] = useState(false);
  const [token, setToken] = useState("");
  const [failed, setFailed] = useState(false);
  const [shown, setShown] = useState(false);
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const widget = useRef<{ api: WidgetApi; id: string | number; el: HTMLElement } | null>(null);

  // Read after hydration: the prerendered form knows nothing of it.
  useEffect(() => setSettings(captchaSettings()), []);
  useEffect(() => {
    if (!settings || !started || !box || widget.current?.el === box) return;
    let live = true;
    loadWidget(settings).then(
      (api) => {
        if (!live) return;
        const id = api.render(box, {
          sitekey: settings.siteKey,
          callback: (t: string) => setToken(t),
          "expired-callback": () => setToken(""),
          "error-callback": () => setToken(""),
        });
        widget.current = { api, id, el: box };
        setToken(""); // a widget shown again is not passed yet
        setShown(true);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [settings, started, box]);

  return {
    required: settings !== null,
    token,
    failed,
    shown,
    box: setBox,
    start: () => setStarted(true),
    reset: () => {
      setToken("");
      if (widget.current) widget.current.api.reset(widget.current.id);
    },
  };
}

export type Captcha = ReturnType<typeof useCaptcha>;

/**
 * CaptchaBox is where a form shows its widget, and why it cannot be sent
 * (missing: the visitor sent it before passing the check). Without
 * JavaScript, on a page whose forms need a CAPTCHA, it says the form
 * cannot be sent (app.css shows that note only then).
 */
export function CaptchaBox({ captcha, missing, className }: { captcha: Captcha; missing: boolean; className?: string }) {
  return (
    <div className={className}>
      <noscript>
        <p className="captcha-noscript text-sm text-red-700 dark:text-red-400">{captchaMessages.noScript}</p>
      </noscript>
      {captcha.required && (
        <>
          <div ref={captcha.box} data-captcha-widget="" />
          {(missing || captcha.failed) && (
            <p role="alert" className="mt-1.5 text-sm text-red-700 dark:text-red-400">
              {captcha.failed ? rules.errors.unavailable : captchaMessages.missing}
            </p>
          )}
        </>
      )}
    </div>
  );
}

// A browser's part in a sign-in, over plain fetch: a cookie jar, redirects
// followed by hand, and the fields of an HTML form. The test identity
// providers' login helpers (oidcLogin, samlLogin) drive their login pages
// with it, so that tests can sign in without a browser.

/** HTTPSession keeps the cookies that the servers it talks to set (by
 * host:port; paths, expiry and attributes are ignored, which is enough for
 * one sign-in) and sends them back. */
export class HTTPSession {
  #jars = new Map();

  /** request fetches url once (no redirect followed), sending and keeping
   * cookies. body, when given, is posted as an HTML form
   * (application/x-www-form-urlencoded). */
  async request(url, { method = "GET", body } = {}) {
    const { host } = new URL(url);
    const jar = this.#jars.get(host) ?? new Map();
    this.#jars.set(host, jar);
    const headers = {};
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    if (body) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await fetch(url, {
      method,
      headers,
      body: body && new URLSearchParams(body).toString(),
      redirect: "manual",
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /;\s*max-age=0/i.test(cookie) || value === "deleted") jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  /** follow fetches url and follows redirects while they stay on one of
   * origins (the identity provider's; all of them when origins is not
   * given). It returns the last response with its text, or, as soon as a
   * redirect leaves origins, {leftTo: URL} without fetching it: that is
   * where the provider sends the browser back. */
  async follow(url, origins, init) {
    let res = await this.request(url, init);
    for (let hops = 0; res.status >= 300 && res.status < 400; hops++) {
      if (hops > 20) throw new Error(`too many redirects from ${url}`);
      const next = new URL(res.headers.get("location"), res.url || url).href;
      if (origins && !origins.includes(new URL(next).origin)) return { leftTo: next };
      res = await this.request(next);
    }
    return { res, url: res.url, text: await res.text() };
  }
}

const entities = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** decodeEntities undoes HTML escaping in an attribute value. */
export function decodeEntities(s) {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) => {
    if (e[0] === "#") return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return entities[e.toLowerCase()] ?? m;
  });
}

function attribute(tag, name) {
  const m = tag.match(new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i"));
  return m ? decodeEntities(m[2] ?? m[3] ?? m[4]) : undefined;
}

/** parseForm finds the first <form> in html (or the first whose inputs
 * include one named withField) and returns its absolute action, method and
 * the values of its named inputs. It returns undefined when there is none. */
export function parseForm(html, baseURL, withField) {
  for (const [, open, inner] of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const fields = {};
    for (const [input] of inner.matchAll(/<(input|button)\b[^>]*>/gi)) {
      const name = attribute(input, "name");
      if (name && !(name in fields)) fields[name] = attribute(input, "value") ?? "";
    }
    if (withField && !(withField in fields)) continue;
    return {
      action: new URL(attribute(open, "action") ?? "", baseURL).href,
      method: (attribute(open, "method") ?? "get").toUpperCase(),
      fields,
    };
  }
  return undefined;
}

import { describe, expect, it } from "vitest";
import { linkToken, withoutLinkToken } from "./auth/link-token";
import { replyHref } from "./screens/message-view";
import { groupSecret, qrImageSrc } from "./auth/totp-enrol";
import { firstFactor, holdLinkRefusal, providerReturn, signInOptionsOf, takeLinkRefusal } from "./auth/federated";
import { accountCopy } from "~/content/console";
import { methodName } from "./screens/sign-in-methods";

describe("the mailed sign-in link", () => {
  it("reads token_hash and type from the query", () => {
    expect(linkToken("?token_hash=abc&type=magiclink")).toEqual({ token_hash: "abc", type: "magiclink" });
    expect(linkToken("?token_hash=abc&type=email")).toEqual({ token_hash: "abc", type: "email" });
    expect(linkToken("?token_hash=abc&type=recovery")).toBeUndefined();
    expect(linkToken("?filter=spam")).toBeUndefined();
  });
  it("is taken out of the address, the rest kept", () => {
    expect(withoutLinkToken("http://s.test/admin?token_hash=abc&type=magiclink")).toBe("/admin");
    expect(withoutLinkToken("http://s.test/admin/inbox?filter=spam&token_hash=abc&type=magiclink&code=abc#x")).toBe("/admin/inbox?filter=spam#x");
  });
});

describe("an identity provider's way back", () => {
  it("reads a PKCE code, or GoTrue's error from the query or the fragment", () => {
    expect(providerReturn("?code=abc", "")).toEqual({ code: "abc" });
    expect(providerReturn("?error=access_denied&error_code=signup_disabled&error_description=Signups+not+allowed", "")).toEqual({ error: "Signups not allowed" });
    expect(providerReturn("", "#error=access_denied&error_description=Nope&sb=")).toEqual({ error: "Nope" });
    expect(providerReturn("?filter=spam", "#x")).toBeUndefined();
    expect(providerReturn("?token_hash=abc&type=magiclink&code=abc", "")).toBeUndefined();
  });
  it("is taken out of the address, the rest kept", () => {
    expect(withoutLinkToken("http://s.test/admin?error=access_denied&error_code=signup_disabled&error_description=x")).toBe("/admin");
    expect(withoutLinkToken("http://s.test/admin#error=access_denied&error_description=x&sb=")).toBe("/admin");
  });
});

describe("the sign-in options", () => {
  it("are the providers an operator added (on in settings.external) and SAML", () => {
    const external = { email: true, phone: false, google: false, keycloak: true, okta: true, anonymous_users: false };
    expect(signInOptionsOf({ external, saml_enabled: true })).toEqual({ providers: ["keycloak", "okta"], sso: true });
    expect(signInOptionsOf({})).toEqual({ providers: [], sso: false });
  });
  it("name each identity as a person reads it", () => {
    expect(methodName("email")).toBe("E-mail code");
    expect(methodName("sso:0b7d")).toBe("Single sign-on");
    expect(methodName("keycloak")).toBe("keycloak");
  });
});

describe("how a session began", () => {
  it("reads the first factor from the token's methods, an authenticator after it or not", () => {
    expect(firstFactor([{ method: "otp" }])).toBe("code");
    expect(firstFactor([{ method: "oauth" }, { method: "totp" }])).toBe("provider");
    expect(firstFactor([{ method: "sso/saml" }])).toBe("sso");
    expect(firstFactor(undefined)).toBe("code");
    expect(firstFactor(["sso/saml"])).toBe("sso");
  });
  it("says it on the account screen", () => {
    expect(accountCopy.sessionLevel("code", false)).toBe("Signed in with an e-mail code");
    expect(accountCopy.sessionLevel("code", true)).toBe("Signed in with an e-mail code and an authenticator");
    expect(accountCopy.sessionLevel("provider", false)).toBe("Signed in through an identity provider");
    expect(accountCopy.sessionLevel("sso", true)).toBe("Signed in with single sign-on and an authenticator");
  });
});

describe("a refused link", () => {
  it("is held for the account screen, once", () => {
    holdLinkRefusal("Identity is already linked to another user");
    expect(takeLinkRefusal()).toBe("Identity is already linked to another user");
    expect(takeLinkRefusal()).toBeUndefined();
  });
});

describe("Reply", () => {
  it("is a mailto: with the subject", () => {
    expect(replyHref({ email: "ada+leads@example.com" })).toBe("mailto:ada%2Bleads@example.com?subject=Re%3A%20your%20message%20to%20Meridian%20Studio");
  });
});

describe("TOTP enrolment", () => {
  it("percent-encodes GoTrue's raw SVG data URL, so a # in it does not end the URL", () => {
    const src = qrImageSrc('data:image/svg+xml;utf-8,<svg xmlns="http://www.w3.org/2000/svg"><rect fill="#000"/></svg>');
    expect(src).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="#000"/></svg>')}`);
    expect(qrImageSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent("<svg/>")}`)).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent("<svg/>")}`);
  });
  it("shows no image for anything but an SVG data URL", () => {
    expect(qrImageSrc("https://evil.example/qr.svg")).toBeUndefined();
    expect(qrImageSrc(undefined)).toBeUndefined();
    expect(qrImageSrc("data:text/html,<script>")).toBeUndefined();
  });
  it("spaces the key in fours", () => {
    expect(groupSecret("JBSWY3DPEHPK3PXP")).toBe("JBSW Y3DP EHPK 3PXP");
    expect(groupSecret("ABCDE")).toBe("ABCD E");
  });
});

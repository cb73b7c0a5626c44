import { describe, expect, it, vi, beforeEach } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { SupabaseClient } from "@supabase/supabase-js";
import { signInCopy } from "~/content/console";
import { SignIn } from "./sign-in";

function fakeClient(otp: { error: unknown }, verify: { error: unknown }) {
  const auth = {
    signInWithOtp: vi.fn(async () => ({ data: { user: null, session: null }, ...otp })),
    verifyOtp: vi.fn(async () => ({ data: { user: null, session: null }, ...verify })),
  };
  return { client: { auth } as unknown as SupabaseClient, auth };
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe("SignIn", () => {
  beforeEach(() => localStorage.clear());

  it("mails a code to the address, then verifies the code typed", async () => {
    const { client, auth } = fakeClient({ error: null }, { error: null });
    render(<SignIn client={client} />);
    type(signInCopy.emailLabel, " Ada@Studio.test ");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.send }));
    expect(await screen.findByRole("heading", { name: signInCopy.checkMail.title })).toBeTruthy();
    expect(auth.signInWithOtp).toHaveBeenCalledWith({ email: "ada@studio.test", options: { shouldCreateUser: false, emailRedirectTo: `${location.origin}/admin` } });
    expect(localStorage.getItem("studio-console-email")).toBe("ada@studio.test");
    type(signInCopy.codeLabel, "12 34 56");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.verify }));
    await waitFor(() => expect(auth.verifyOtp).toHaveBeenCalledWith({ email: "ada@studio.test", token: "123456", type: "email" }));
  });

  it("keeps the last address, and says why when the session ended", () => {
    localStorage.setItem("studio-console-email", "grace@studio.test");
    const { client } = fakeClient({ error: null }, { error: null });
    render(<SignIn client={client} notice="expired" />);
    expect((screen.getByLabelText(signInCopy.emailLabel) as HTMLInputElement).value).toBe("grace@studio.test");
    expect(screen.getByText(signInCopy.expired)).toBeTruthy();
  });

  it("refuses a malformed address without sending anything", async () => {
    const { client, auth } = fakeClient({ error: null }, { error: null });
    render(<SignIn client={client} />);
    type(signInCopy.emailLabel, "not-an-address");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.send }));
    expect(await screen.findByText(signInCopy.errors.email)).toBeTruthy();
    expect(auth.signInWithOtp).not.toHaveBeenCalled();
  });

  it("goes on to the code after a 429: the code mailed within the minute still works", async () => {
    const { client } = fakeClient({ error: { status: 429, code: "over_email_send_rate_limit", message: "For security purposes…" } }, { error: null });
    render(<SignIn client={client} />);
    type(signInCopy.emailLabel, "ada@studio.test");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.send }));
    expect(await screen.findByText(signInCopy.recentlySent)).toBeTruthy();
  });

  it("shows a wrong code's error and keeps the form", async () => {
    const { client } = fakeClient({ error: null }, { error: { status: 403, code: "otp_expired", message: "Token has expired or is invalid" } });
    render(<SignIn client={client} />);
    type(signInCopy.emailLabel, "ada@studio.test");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.send }));
    await screen.findByLabelText(signInCopy.codeLabel);
    type(signInCopy.codeLabel, "000000");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.verify }));
    expect(await screen.findByText(signInCopy.errors.wrongCode)).toBeTruthy();
    expect(screen.getByLabelText(signInCopy.codeLabel)).toBeTruthy();
  });

  it("says when the server cannot be reached", async () => {
    const { client } = fakeClient({ error: { name: "AuthRetryableFetchError", status: 0, message: "Failed to fetch" } }, { error: null });
    render(<SignIn client={client} />);
    type(signInCopy.emailLabel, "ada@studio.test");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.send }));
    expect(await screen.findByText(signInCopy.errors.network)).toBeTruthy();
  });
});

describe("SignIn with identity providers", () => {
  beforeEach(() => localStorage.clear());

  it("offers each provider the server lists, and single sign-on by the address's domain", async () => {
    const settings = { external: { email: true, google: false, keycloak: true }, saml_enabled: true };
    const fetchMock = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify(settings), { status: 200 }));
    const { client } = fakeClient({ error: null }, { error: null });
    render(<SignIn client={client} />);
    expect(await screen.findByRole("button", { name: signInCopy.withProvider("keycloak") })).toBeTruthy();
    expect(screen.queryByRole("button", { name: signInCopy.withProvider("google") })).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith("/auth/v1/settings", expect.anything());
    fireEvent.click(screen.getByRole("button", { name: signInCopy.sso.start }));
    expect(await screen.findByRole("heading", { name: signInCopy.sso.title })).toBeTruthy();
    type(signInCopy.emailLabel, "nobody");
    fireEvent.click(screen.getByRole("button", { name: signInCopy.sso.submit }));
    expect(await screen.findByText(signInCopy.errors.email)).toBeTruthy();
    fetchMock.mockRestore();
  });

  it("offers nothing more when the server lists no provider", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify({ external: { email: true } }), { status: 200 }));
    const { client } = fakeClient({ error: null }, { error: null });
    render(<SignIn client={client} />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByTestId("sign-in-providers")).toBeNull();
    fetchMock.mockRestore();
  });
});

/**
 * ConsoleApp is the staff console's root (client:only on /admin): it makes
 * the Supabase client, follows the session (onAuthStateChange), and shows
 * sign-in, the two-step check, the required set-up or the console. A link
 * from the sign-in mail (?token_hash=…&type=magiclink), or an identity
 * provider's way back (?code=… or GoTrue's error parameters), is handled
 * here and taken out of the address bar; when the sign-in needs a CAPTCHA,
 * the link waits on a "Confirm your sign-in" step for the check
 * (captcha-check.tsx).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Session } from "@supabase/supabase-js";
import { consoleShell, signInCopy } from "~/content/console";
import { AuthCard } from "./auth/auth-card";
import { ReadCache } from "./data/cache";
import { AUTH_TABLE } from "./data/tables";
import { consoleClient, type ConsoleClient } from "./data/client";
import { ConsoleContext, type Console } from "./data/console-context";
import { openLiveFeed, type LiveFeed } from "./data/live";
import { problemOf, type Problem } from "./data/problem";
import { ConsoleShell } from "./shell";
import { SignIn, rememberEmail, type SignInNotice } from "./auth/sign-in";
import { LoadingState, ProblemState } from "./ui/states";
import { useDocumentTitle } from "./ui/document-title";
import { EnrolFirst, TwoStepCheck } from "./auth/two-step";
import { holdLinkRefusal, providerReturn } from "./auth/federated";
import { linkToken, withoutLinkToken, type LinkToken } from "./auth/link-token";
import { ConfirmLink } from "./auth/captcha-check";
import { captchaSettings } from "~/lib/captcha";

export type Stage =
  | { name: "starting" }
  | { name: "signed-out"; notice?: SignInNotice }
  | { name: "two-step" }
  | { name: "enrol" }
  /** arrived: the console comes after a sign-in or a check in this tab (not a session kept from an earlier visit), so focus goes to its heading. */
  | { name: "ready"; session: Session; arrived?: boolean };

export default function ConsoleApp() {
  const [client, setClient] = useState<ConsoleClient>();
  const [configFailed, setConfigFailed] = useState(false);
  const load = useCallback(() => {
    setConfigFailed(false);
    consoleClient().then(setClient, () => setConfigFailed(true));
  }, []);
  useEffect(load, [load]);
  if (configFailed) {
    return (
      <AuthCard title={consoleShell.configProblem.title}>
        <ProblemState problem={{ kind: "other", message: consoleShell.configProblem.text }} onRetry={load} />
      </AuthCard>
    );
  }
  if (!client) return <Starting />;
  return <SignedInGate client={client} />;
}

function Starting({ label = consoleShell.loading }: { label?: string }) {
  useDocumentTitle(undefined);
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <LoadingState label={label} />
    </div>
  );
}

function SignedInGate({ client }: { client: ConsoleClient }) {
  const [stage, setStage] = useState<Stage>({ name: "starting" });
  /** What the screen says while a mailed link or a provider's code is traded for a session. */
  const [signingIn, setSigningIn] = useState(() => {
    if (linkToken(location.search)) return captchaSettings() ? undefined : signInCopy.linkSigningIn;
    const back = providerReturn(location.search, location.hash);
    return back && "code" in back ? signInCopy.providerSigningIn : undefined;
  });
  /** A mailed link that waits for the CAPTCHA before it is verified (ConfirmLink). */
  const [linkToConfirm, setLinkToConfirm] = useState<LinkToken>();
  /** Set while this tab signs out on purpose: a sign-out that comes otherwise means the session ended. */
  const leaving = useRef(false);
  const stageName = useRef(stage.name);
  stageName.current = stage.name;

  /** Whether this tab has had a session: losing it, not by a sign-out here, means it ended. */
  const hadSession = useRef(false);

  const evaluate = useCallback(
    async (session: Session | null) => {
      if (!session) {
        const notice: SignInNotice | undefined = hadSession.current && !leaving.current ? "expired" : undefined;
        hadSession.current = leaving.current = false;
        setStage((s) => ({ name: "signed-out", notice: notice ?? (s.name === "signed-out" ? s.notice : undefined) }));
        return;
      }
      hadSession.current = true;
      if (session.user.email) rememberEmail(session.user.email);
      const { data } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
      if (data?.nextLevel === "aal2" && data.currentLevel !== "aal2") setStage({ name: "two-step" });
      else
        setStage((s) =>
          s.name === "enrol" && data?.currentLevel !== "aal2" ? s : { name: "ready", session, arrived: s.name === "ready" ? s.arrived : s.name !== "starting" },
        );
    },
    [client],
  );

  /**
   * checkSession asks the server whether the session still exists (it ends
   * on a sign-out elsewhere, "studio staff remove", or a refresh token used
   * twice); when it does not, the session is dropped here too, which sends
   * this tab to sign-in with the address kept. A network failure changes
   * nothing. It reports whether the session is alive.
   */
  const checkSession = useCallback(async () => {
    const { error } = await client.auth.getUser();
    if (!error) return true;
    if (problemOf(error).kind !== "session") return true;
    // getUser has already dropped a session the server says is gone; anything else is dropped here.
    const { data } = await client.auth.getSession();
    if (data.session) await client.auth.signOut({ scope: "local" });
    return false;
  }, [client]);

  useEffect(() => {
    // Other calls of the client must not run inside its callback (they would wait on its lock): hence the timeout.
    const { data } = client.auth.onAuthStateChange((event, session) => {
      setTimeout(async () => {
        // A session kept from an earlier visit may have ended meanwhile: ask before showing anything.
        if (event === "INITIAL_SESSION" && session) {
          hadSession.current = true; // kept from an earlier visit: losing it now means it ended
          if (!(await checkSession())) return;
        }
        await evaluate(session);
      }, 0);
    });
    return () => data.subscription.unsubscribe();
  }, [client, evaluate, checkSession]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === "visible" && stageName.current === "ready") void checkSession();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [checkSession]);

  useEffect(() => {
    const token = linkToken(location.search);
    const back = token ? undefined : providerReturn(location.search, location.hash);
    if (!token && !back) return;
    history.replaceState(null, "", withoutLinkToken(location.href));
    if (token && captchaSettings()) {
      setLinkToConfirm(token); // its /verify needs a CAPTCHA token too
    } else if (token) {
      void client.auth.verifyOtp(token).then(({ error }) => {
        setSigningIn(undefined);
        if (error) setStage({ name: "signed-out", notice: "badLink" });
      });
    } else if (back && "code" in back) {
      void client.auth.exchangeCodeForSession(back.code).then(({ error }) => {
        setSigningIn(undefined);
        if (error) setStage({ name: "signed-out", notice: { provider: signInCopy.errors.providerCode } });
      });
    } else if (back) {
      // A signed-in person comes back refused from linking a provider: they stay signed in, and the account screen says why.
      void client.auth.getSession().then(({ data }) => {
        if (data.session) holdLinkRefusal(back.error);
        else setStage({ name: "signed-out", notice: { provider: back.error } });
      });
    }
  }, [client]);

  const signOut = useCallback(
    async (scope: "local" | "global") => {
      leaving.current = true;
      await client.auth.signOut({ scope });
    },
    [client],
  );

  const reportProblem = useCallback(
    (p: Problem) => {
      if (p.kind === "session") void checkSession();
      else if (p.kind === "aal") {
        void client.auth.mfa.listFactors().then(({ data }) => {
          setStage(data?.all.some((f) => f.status === "verified") ? { name: "two-step" } : { name: "enrol" });
        });
      }
    },
    [client, checkSession],
  );

  const session = stage.name === "ready" ? stage.session : undefined;
  if (signingIn) return <Starting label={signingIn} />;
  if (linkToConfirm) {
    return (
      <ConfirmLink
        client={client}
        link={linkToConfirm}
        onDone={(ok) => {
          setLinkToConfirm(undefined);
          if (!ok) setStage({ name: "signed-out", notice: "badLink" });
        }}
        onCancel={() => setLinkToConfirm(undefined)}
      />
    );
  }
  switch (stage.name) {
    case "starting":
      return <Starting />;
    case "signed-out":
      return <SignIn client={client} notice={stage.notice} />;
    case "two-step":
      return <TwoStepCheck client={client} onSignOut={() => void signOut("local")} />;
    case "enrol":
      return <EnrolFirst client={client} onSignOut={() => void signOut("local")} />;
    case "ready":
      return <Ready client={client} session={session!} reportProblem={reportProblem} signOut={signOut} arrived={stage.arrived ?? false} />;
  }
}

function Ready({ client, session, reportProblem, signOut, arrived }: Omit<Console, "live" | "cache"> & { arrived: boolean }) {
  const [data, setData] = useState<{ live: LiveFeed; cache: ReadCache }>();
  const userId = session.user.id;
  useEffect(() => {
    // A channel that fails or is closed by the server may mean the session ended elsewhere: check it.
    const live = openLiveFeed(client, () => reportProblem({ kind: "session", message: "" }));
    const cache = new ReadCache(reportProblem);
    const disconnect = cache.connect(live);
    setData({ live, cache });
    return () => {
      disconnect();
      live.close();
    };
  }, [client, userId, reportProblem]);
  // What the auth service answers depends on the session's token (its assurance level): read it again with a new one.
  const token = useRef(session.access_token);
  useEffect(() => {
    if (token.current === session.access_token) return;
    token.current = session.access_token;
    data?.cache.invalidate(AUTH_TABLE);
  }, [data, session.access_token]);
  const value = useMemo(() => (data ? { client, session, reportProblem, signOut, ...data } : undefined), [client, session, reportProblem, signOut, data]);
  if (!value) return <Starting />;
  return (
    <ConsoleContext.Provider value={value}>
      <ConsoleShell arrived={arrived} />
    </ConsoleContext.Provider>
  );
}

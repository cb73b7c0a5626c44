/** The account page: who is signed in and how, the sign-in methods, the authenticator (set up, remove), and signing out here or everywhere. */
import { useRef, useState } from "react";
import { LogOut, ShieldCheck, Trash2 } from "lucide-react";
import type { Factor } from "@supabase/supabase-js";
import { accountCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { Notice } from "../auth/auth-card";
import { useConsole } from "../data/console-context";
import type { Answer } from "../data/answer";
import type { ConsoleClient } from "../data/client";
import { problemOf } from "../data/problem";
import { AUTH_TABLE } from "../data/tables";
import { useRead } from "../data/use-read";
import { PasskeySection } from "./passkeys";
import { LoadingState, ProblemState } from "../ui/states";
import { formatDateTime } from "../time";
import { TotpEnrol } from "../auth/totp-enrol";
import { SignInMethods } from "./sign-in-methods";
import { firstFactor, type FirstFactor } from "../auth/federated";
import { useDocumentTitle } from "../ui/document-title";

const card = "flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900/40";

type Factors = { totp: Factor[]; level: string | null; first: FirstFactor };

/** readFactors reads the person's authenticators and how the session was signed in. */
async function readFactors(client: ConsoleClient): Promise<Answer<Factors>> {
  const [{ data, error }, aal] = await Promise.all([client.auth.mfa.listFactors(), client.auth.mfa.getAuthenticatorAssuranceLevel()]);
  if (error) return { data: null, error };
  return { data: { totp: data.totp, level: aal.data?.currentLevel ?? null, first: firstFactor(aal.data?.currentAuthenticationMethods) }, error: null };
}

export function AccountScreen() {
  const { client, session, signOut } = useConsole();
  useDocumentTitle(accountCopy.title);
  const factors = useRead({ table: AUTH_TABLE, read: "factors" }, () => readFactors(client));
  const load = factors.reload;
  const [notice, setNotice] = useState<string>();
  const mfaTitle = useRef<HTMLHeadingElement>(null);

  const remove = async (f: Factor) => {
    if (!window.confirm(accountCopy.mfa.removeConfirm)) return;
    setNotice(undefined);
    const { error } = await client.auth.mfa.unenroll({ factorId: f.id });
    if (error) {
      const kind = problemOf(error).kind;
      setNotice(kind === "aal" || error.status === 403 || error.status === 422 ? accountCopy.mfa.needsAal2 : error.message);
      return;
    }
    // The session's assurance level is in its token: a new token says what is left.
    await client.auth.refreshSession();
    toast({ title: accountCopy.mfa.removed });
    load();
  };

  return (
    <section aria-labelledby="screen-title" className="flex max-w-2xl flex-col gap-6">
      <h1 id="screen-title" tabIndex={-1} className="text-2xl font-bold tracking-tight focus:outline-none">
        {accountCopy.title}
      </h1>
      <div className={card}>
        <div>
          <p className="text-sm text-slate-600 dark:text-slate-400">{accountCopy.signedInAs}</p>
          <p className="break-all text-lg font-semibold" data-testid="account-email">
            {session.user.email}
          </p>
          {factors.phase === "done" && factors.data.level && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="session-level" data-level={factors.data.level}>
              {accountCopy.sessionLevel(factors.data.first, factors.data.level === "aal2")}
            </p>
          )}
        </div>
      </div>
      <SignInMethods className={card} />
      <section aria-labelledby="mfa-title" className={card}>
        <div>
          <h2 id="mfa-title" ref={mfaTitle} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
            {accountCopy.mfa.title}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{accountCopy.mfa.intro}</p>
        </div>
        {notice && <Notice tone="problem">{notice}</Notice>}
        {factors.phase === "loading" ? (
          <LoadingState />
        ) : factors.phase === "failed" ? (
          <ProblemState problem={factors.problem} onRetry={load} />
        ) : (
          <>
            {factors.data.totp.length === 0 ? (
              <p className="text-sm">{accountCopy.mfa.none}</p>
            ) : (
              <ul className="flex flex-col gap-2" data-testid="factor-list">
                {factors.data.totp.map((f) => (
                  <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
                    <span className="flex items-center gap-2">
                      <ShieldCheck aria-hidden="true" className="size-5 text-emerald-700 dark:text-emerald-300" />
                      <span>
                        <span className="font-medium">{accountCopy.mfa.factorName(f.friendly_name)}</span>
                        <span className="block text-xs text-slate-600 dark:text-slate-400">{accountCopy.mfa.added(formatDateTime(f.created_at))}</span>
                      </span>
                    </span>
                    <button type="button" className={buttonClass("ghost", "sm")} onClick={() => void remove(f)}>
                      <Trash2 aria-hidden="true" className="size-4" />
                      {accountCopy.mfa.remove}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {factors.data.totp.length === 0 && (
              <TotpEnrol
                client={client}
                onDone={() => {
                  // The set-up's form goes away: focus goes to this section's heading, above the list that now shows the authenticator.
                  mfaTitle.current?.focus();
                  load();
                }}
              />
            )}
          </>
        )}
      </section>
      <PasskeySection />
      <section aria-labelledby="sign-out-title" className={card}>
        <h2 id="sign-out-title" className="text-lg font-semibold">
          {accountCopy.signOut.title}
        </h2>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={buttonClass("secondary", "md")} onClick={() => void signOut("local")}>
            <LogOut aria-hidden="true" className="size-4" />
            {accountCopy.signOut.here}
          </button>
          <button type="button" className={buttonClass("secondary", "md")} onClick={() => void signOut("global")} aria-describedby="sign-out-everywhere-hint">
            <LogOut aria-hidden="true" className="size-4" />
            {accountCopy.signOut.everywhere}
          </button>
        </div>
        <p id="sign-out-everywhere-hint" className="text-sm text-slate-600 dark:text-slate-400">
          {accountCopy.signOut.everywhereHint}
        </p>
      </section>
    </section>
  );
}

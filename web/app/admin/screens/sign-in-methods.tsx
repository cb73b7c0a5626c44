/** The account page's sign-in methods: the e-mail code and each linked identity provider (unlink), and the providers that can be linked. */
import { useState } from "react";
import { KeyRound, Link2, Mail, Trash2 } from "lucide-react";
import type { UserIdentity } from "@supabase/supabase-js";
import { accountCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { Notice } from "../auth/auth-card";
import type { Answer } from "../data/answer";
import type { ConsoleClient } from "../data/client";
import { useConsole } from "../data/console-context";
import { AUTH_TABLE } from "../data/tables";
import { useRead } from "../data/use-read";
import { consoleReturnURL, pkceTwin, signInOptions, takeLinkRefusal } from "../auth/federated";
import { CONSOLE_ROOT } from "../route";
import { LoadingState, ProblemState } from "../ui/states";
import { formatDateTime } from "../time";

type Methods = { identities: UserIdentity[]; linkable: string[] };

/** readMethods reads the person's identities and the providers the server offers that are not linked yet. */
async function readMethods(client: ConsoleClient, signal: AbortSignal): Promise<Answer<Methods>> {
  const [{ data, error }, options] = await Promise.all([client.auth.getUserIdentities(), signInOptions(client, signal)]);
  if (error) return { data: null, error };
  const linked = new Set(data.identities.map((i) => i.provider));
  return { data: { identities: data.identities, linkable: options.providers.filter((p) => !linked.has(p)) }, error: null };
}

const copy = accountCopy.identities;

/** methodName is how a person reads an identity's provider. */
export function methodName(provider: string): string {
  if (provider === "email") return copy.email;
  if (provider.startsWith("sso:")) return copy.sso;
  return provider;
}

export function SignInMethods({ className }: { className: string }) {
  const { client } = useConsole();
  const methods = useRead({ table: AUTH_TABLE, read: "identities" }, (signal) => readMethods(client, signal));
  const load = methods.reload;
  const [notice, setNotice] = useState<string | undefined>(() => {
    const refused = takeLinkRefusal();
    return refused && copy.linkFailed(refused);
  });
  const [busy, setBusy] = useState(false);

  const unlink = async (identity: UserIdentity) => {
    if (!window.confirm(copy.unlinkConfirm)) return;
    setNotice(undefined);
    setBusy(true);
    const { error } = await client.auth.unlinkIdentity(identity);
    setBusy(false);
    if (error) {
      setNotice(error.status === 403 ? copy.needsAal2 : error.message);
      return;
    }
    toast({ title: copy.unlinked });
    load();
  };

  const link = async (provider: string) => {
    setNotice(undefined);
    setBusy(true);
    const { error } = await pkceTwin(client).auth.linkIdentity({ provider: provider as never, options: { redirectTo: consoleReturnURL(`${CONSOLE_ROOT}/account`) } });
    // On success the browser is on its way to the provider.
    if (error) {
      setBusy(false);
      setNotice(error.status === 403 ? copy.needsAal2 : error.message);
    }
  };

  return (
    <section aria-labelledby="methods-title" className={className}>
      <div>
        <h2 id="methods-title" className="text-lg font-semibold">
          {copy.title}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{copy.intro}</p>
      </div>
      {notice && <Notice tone="problem">{notice}</Notice>}
      {busy && methods.phase === "done" && <p className="sr-only" role="status">{copy.linking}</p>}
      {methods.phase === "loading" ? (
        <LoadingState />
      ) : methods.phase === "failed" ? (
        <ProblemState problem={methods.problem} onRetry={load} />
      ) : (
        <>
          <ul className="flex flex-col gap-2" data-testid="identity-list">
            {methods.data.identities.map((i) => (
              <li key={i.identity_id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
                <span className="flex items-center gap-2">
                  {i.provider === "email" ? <Mail aria-hidden="true" className="size-5 shrink-0" /> : <KeyRound aria-hidden="true" className="size-5 shrink-0" />}
                  <span>
                    <span className="font-medium [overflow-wrap:anywhere]">{methodName(i.provider)}</span>
                    <span className="block text-xs text-slate-600 dark:text-slate-400">
                      {i.provider === "email" ? (i.identity_data?.email as string) : copy.linked(formatDateTime(i.created_at ?? ""))}
                    </span>
                  </span>
                </span>
                {i.provider !== "email" && (
                  <button type="button" disabled={busy} className={buttonClass("ghost", "sm")} onClick={() => void unlink(i)} aria-label={`${copy.unlink} ${methodName(i.provider)}`}>
                    <Trash2 aria-hidden="true" className="size-4" />
                    {copy.unlink}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {methods.data.linkable.length > 0 && (
            <div className="flex flex-wrap gap-2">
              {methods.data.linkable.map((p) => (
                <button key={p} type="button" disabled={busy} className={buttonClass("secondary", "md", "h-auto! min-h-11 py-2 text-left [overflow-wrap:anywhere]")} onClick={() => void link(p)}>
                  <Link2 aria-hidden="true" className="size-4 shrink-0" />
                  {copy.link(p)}
                </button>
              ))}
            </div>
          )}
        </>
      )}
    </section>
  );
}

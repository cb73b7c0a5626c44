/** The account page's passkeys: the list, each with Remove, and the form that adds one (the ceremonies are auth/passkey.tsx's). */
import { useState } from "react";
import { FingerprintPattern, Trash2 } from "lucide-react";
import type { Factor } from "@supabase/supabase-js";
import { accountCopy, passkeyCopy } from "~/content/console";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { Notice } from "../auth/auth-card";
import { PasskeyAdd, passkeyErrorText } from "../auth/passkey";
import { useConsole } from "../data/console-context";
import { AUTH_TABLE } from "../data/tables";
import { useRead } from "../data/use-read";
import { LoadingState, ProblemState } from "../ui/states";
import { formatDateTime } from "../time";

const copy = passkeyCopy;

/** PasskeySection is the account page's passkeys: the list, each with Remove, and the form that adds one. */
export function PasskeySection() {
  const { client } = useConsole();
  const listed = useRead({ table: AUTH_TABLE, read: "passkeys" }, async () => {
    const { data, error } = await client.auth.mfa.listFactors();
    return { data: data?.webauthn ?? null, error };
  });
  const load = listed.reload;
  // A reload (after a change) keeps the list shown until the new one is in.
  const passkeys = listed.phase === "done" ? listed.data : listed.phase === "loading" ? listed.last?.data : undefined;
  const [notice, setNotice] = useState<string>();

  const remove = async (f: Factor) => {
    if (!window.confirm(copy.removeConfirm)) return;
    setNotice(undefined);
    const { error } = await client.auth.mfa.unenroll({ factorId: f.id });
    if (error) {
      setNotice(error.status === 403 || error.status === 422 ? copy.errors.needsAal2 : passkeyErrorText(error));
      return;
    }
    // The session's assurance level is in its token: a new token says what is left.
    await client.auth.refreshSession();
    toast({ title: copy.removed });
    load();
  };

  return (
    <section aria-labelledby="passkeys-title" className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900/40">
      <div>
        <h2 id="passkeys-title" className="text-lg font-semibold">
          {copy.title}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{copy.intro}</p>
      </div>
      {notice && <Notice tone="problem">{notice}</Notice>}
      {listed.phase === "failed" ? (
        <ProblemState problem={listed.problem} onRetry={load} />
      ) : !passkeys ? (
        <LoadingState />
      ) : passkeys.length === 0 ? (
        <p className="text-sm">{copy.none}</p>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="passkey-list">
          {passkeys.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
              <span className="flex items-center gap-2">
                <FingerprintPattern aria-hidden="true" className="size-5 text-emerald-700 dark:text-emerald-300" />
                <span>
                  <span className="font-medium">{copy.factorName(f.friendly_name)}</span>
                  <span className="block text-xs text-slate-600 dark:text-slate-400">{accountCopy.mfa.added(formatDateTime(f.created_at))}</span>
                </span>
              </span>
              <button type="button" className={buttonClass("ghost", "sm")} aria-label={copy.removeLabel(f.friendly_name)} onClick={() => void remove(f)}>
                <Trash2 aria-hidden="true" className="size-4" />
                {copy.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      <PasskeyAdd client={client} onAdded={load} />
    </section>
  );
}

import type { TeamMember } from "~/content/types";
import { Image } from "~/components/ui/image";

/** TeamCard is a person of the team: portrait, name, role and a short bio. */
export function TeamCard({ member, portraitAlt }: { member: TeamMember; portraitAlt: (name: string) => string }) {
  return (
    <article className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <Image
        src={member.image}
        alt={portraitAlt(member.name)}
        width={400}
        height={400}
        className="mx-auto size-32 rounded-full object-cover ring-4 ring-brand-50 dark:ring-brand-500/20"
      />
      <h3 className="mt-5 text-lg font-semibold text-slate-900 dark:text-white">{member.name}</h3>
      <p className="text-sm font-medium text-brand-700 dark:text-brand-300">{member.role}</p>
      <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{member.bio}</p>
    </article>
  );
}

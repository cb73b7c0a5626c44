import type { ReactNode } from "react";
import { CalendarDays, Mail, MapPin, Phone } from "lucide-react";
import { PageHero } from "~/components/page-hero";
import { buttonClass } from "~/components/ui/button";
import { ExternalLink } from "~/components/ui/external-link";
import { contactDetails, contactPage } from "~/content/contact";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => pageMeta(contactPage, { path });

/**
 * The contact page around its island: `panel` is the form (ContactPanel) on
 * /contact, and the confirmation (Received) on /contact/sent.
 */
export default function Page({ panel }: { panel?: ReactNode }) {
  return (
    <>
      <PageHero title={contactPage.title} lead={contactPage.description} />
      <section className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-5 lg:px-8">
        <div className="lg:col-span-3">
          <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">{panel}</div>
        </div>
        <ContactDetails />
      </section>
    </>
  );
}

function ContactDetails() {
  const d = contactDetails;
  const rows = [
    { icon: Mail, label: d.email.label, value: d.email.value, href: d.email.href },
    { icon: Phone, label: d.phone.label, value: d.phone.value, href: d.phone.href },
    { icon: MapPin, label: d.location.label, value: d.location.value },
  ];
  return (
    <aside aria-labelledby="get-in-touch" className="space-y-8 lg:col-span-2">
      <div>
        <h2 id="get-in-touch" className="text-2xl font-bold text-slate-900 dark:text-white">
          {d.title}
        </h2>
        <p className="mt-3 text-slate-600 dark:text-slate-300">{d.blurb}</p>
      </div>
      <ul className="space-y-5">
        {rows.map(({ icon: Icon, label, value, href }) => (
          <li key={label} className="flex items-start gap-4">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div>
              <p className="text-sm font-medium text-slate-500 dark:text-slate-400">{label}</p>
              {href ? (
                <a href={href} className="font-medium text-slate-900 underline-offset-4 hover:text-brand-700 hover:underline dark:text-white dark:hover:text-brand-300">
                  {value}
                </a>
              ) : (
                <p className="font-medium text-slate-900 dark:text-white">{value}</p>
              )}
            </div>
          </li>
        ))}
      </ul>
      <div className="rounded-2xl border border-brand-200 bg-brand-50 p-6 dark:border-brand-500/30 dark:bg-brand-500/10">
        <div className="flex items-center gap-3">
          <CalendarDays aria-hidden="true" className="size-6 text-brand-700 dark:text-brand-300" />
          <h3 className="text-lg font-semibold text-slate-900 dark:text-white">{d.schedule.title}</h3>
        </div>
        <p className="mt-3 text-slate-700 dark:text-slate-300">{d.schedule.text}</p>
        <ExternalLink href={d.schedule.link.href} className={buttonClass("primary", "md", "mt-5")}>
          {d.schedule.link.label}
        </ExternalLink>
      </div>
    </aside>
  );
}

import type { ExternalLink as ExternalLinkData, Link as LinkData } from "~/content/types";
import { buttonClass } from "~/components/ui/button";
import { ExternalLink } from "~/components/ui/external-link";
import { SiteLink } from "~/components/site-link";

/**
 * CtaBand is the closing call to action of a page: a title, a line and one or
 * two links. The primary link may lead to another site (it then opens in a
 * new tab); links to an anchor ("#pricing") stay plain anchors.
 */
export function CtaBand({
  title,
  lead,
  primary,
  secondary,
}: {
  title: string;
  lead: string;
  primary: LinkData | ExternalLinkData;
  secondary?: LinkData;
}) {
  return (
    <section aria-labelledby="cta-heading" className="px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
      <div className="mx-auto max-w-5xl rounded-3xl bg-gradient-to-br from-brand-700 to-brand-900 px-6 py-14 text-center shadow-xl sm:px-12">
        <h2 id="cta-heading" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
          {title}
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-brand-100">{lead}</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          {"external" in primary ? (
            <ExternalLink href={primary.href} className={buttonClass("inverse", "lg")}>
              {primary.label}
            </ExternalLink>
          ) : (
            <SiteLink link={primary} className={buttonClass("inverse", "lg")} />
          )}
          {secondary && <SiteLink link={secondary} className={buttonClass("outline-inverse", "lg")} />}
        </div>
      </div>
    </section>
  );
}

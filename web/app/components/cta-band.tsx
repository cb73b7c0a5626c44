import { Link } from "react-router";
import type { Link as LinkData } from "~/content/types";
import { buttonClass } from "~/components/ui/button";

/** CtaBand is the closing call to action of a page: a title, a line and two links. */
export function CtaBand({
  title,
  lead,
  primary,
  secondary,
}: {
  title: string;
  lead: string;
  primary: LinkData;
  secondary: LinkData;
}) {
  return (
    <section aria-labelledby="cta-heading" className="px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
      <div className="mx-auto max-w-5xl rounded-3xl bg-gradient-to-br from-brand-700 to-brand-900 px-6 py-14 text-center shadow-xl sm:px-12">
        <h2 id="cta-heading" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
          {title}
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-brand-100">{lead}</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to={primary.href} className={buttonClass("inverse", "lg")}>
            {primary.label}
          </Link>
          <Link to={secondary.href} className={buttonClass("outline-inverse", "lg")}>
            {secondary.label}
          </Link>
        </div>
      </div>
    </section>
  );
}

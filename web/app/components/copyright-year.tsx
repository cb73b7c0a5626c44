import { footer } from "~/content/site";
import { useHydrated } from "~/lib/hydrated";

/**
 * CopyrightYear is the footer's copyright line (an island): the year of the
 * build in the HTML, the visitor's current year once it runs, so it is right
 * even when the build is older. Its element is what client:visible watches.
 */
export function CopyrightYear({ buildYear }: { buildYear: number }) {
  const hydrated = useHydrated();
  return <span>{footer.copyright(hydrated ? new Date().getFullYear() : buildYear)}</span>;
}

import type { MetaArgs } from "~/lib/meta";
import { affiliateDisclosure } from "~/content/legal/affiliate-disclosure";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = ({ location }: MetaArgs) => pageMeta(affiliateDisclosure.meta, { path: location.pathname });

export default function Page() {
  return <LegalPage doc={affiliateDisclosure} />;
}

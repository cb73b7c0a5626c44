import { affiliateDisclosure } from "~/content/legal/affiliate-disclosure";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => pageMeta(affiliateDisclosure.meta, { path });

export default function Page() {
  return <LegalPage doc={affiliateDisclosure} />;
}

import { affiliateDisclosure } from "~/content/legal/affiliate-disclosure";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = () => pageMeta(affiliateDisclosure.meta);

export default function Page() {
  return <LegalPage doc={affiliateDisclosure} />;
}

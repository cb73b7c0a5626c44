import { privacy } from "~/content/legal/privacy";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = () => pageMeta(privacy.meta);

export default function Page() {
  return <LegalPage doc={privacy} />;
}

import { privacy } from "~/content/legal/privacy";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => pageMeta(privacy.meta, { path });

export default function Page() {
  return <LegalPage doc={privacy} />;
}

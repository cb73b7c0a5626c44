import { terms } from "~/content/legal/terms";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => pageMeta(terms.meta, { path });

export default function Page() {
  return <LegalPage doc={terms} />;
}

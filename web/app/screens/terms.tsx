import type { MetaArgs } from "~/lib/meta";
import { terms } from "~/content/legal/terms";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = ({ location }: MetaArgs) => pageMeta(terms.meta, { path: location.pathname });

export default function Page() {
  return <LegalPage doc={terms} />;
}

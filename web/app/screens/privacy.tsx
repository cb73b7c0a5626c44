import type { MetaArgs } from "~/lib/meta";
import { privacy } from "~/content/legal/privacy";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = ({ location }: MetaArgs) => pageMeta(privacy.meta, { path: location.pathname });

export default function Page() {
  return <LegalPage doc={privacy} />;
}

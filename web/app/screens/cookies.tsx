import type { MetaArgs } from "~/lib/meta";
import { cookies } from "~/content/legal/cookies";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = ({ location }: MetaArgs) => pageMeta(cookies.meta, { path: location.pathname });

export default function Page() {
  return <LegalPage doc={cookies} />;
}

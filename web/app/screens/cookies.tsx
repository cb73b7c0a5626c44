import { cookies } from "~/content/legal/cookies";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => pageMeta(cookies.meta, { path });

export default function Page() {
  return <LegalPage doc={cookies} />;
}

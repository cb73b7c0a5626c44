import { cookies } from "~/content/legal/cookies";
import { LegalPage } from "~/components/legal-page";
import { pageMeta } from "~/lib/meta";

export const meta = () => pageMeta(cookies.meta);

export default function Page() {
  return <LegalPage doc={cookies} />;
}

import { PageHero } from "~/components/page-hero";
import { pageMeta } from "~/lib/meta";

const page = {
  title: "Affiliate Disclosure",
  description: "How affiliate links on this website work.",
} as const;

export const meta = () => pageMeta(page);

export default function Page() {
  return <PageHero title={page.title} lead={page.description} />;
}

import { PageHero } from "~/components/page-hero";
import { pageMeta } from "~/lib/meta";

const page = {
  title: "Service Packages",
  description: "Clear scope and fixed prices for every stage of your SaaS company.",
} as const;

export const meta = () => pageMeta(page);

export default function Page() {
  return <PageHero title={page.title} lead={page.description} />;
}

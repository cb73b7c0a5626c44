import { PageHero } from "~/components/page-hero";
import { pageMeta } from "~/lib/meta";

const page = {
  title: "Resources Hub",
  description: "Guides, articles, podcasts and templates for SaaS founders.",
} as const;

export const meta = () => pageMeta(page);

export default function Page() {
  return <PageHero title={page.title} lead={page.description} />;
}

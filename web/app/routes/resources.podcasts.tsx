import { PageHero } from "~/components/page-hero";
import { pageMeta } from "~/lib/meta";

const page = {
  title: "Podcasts",
  description: "Conversations with founders, operators and investors.",
} as const;

export const meta = () => pageMeta(page);

export default function Page() {
  return <PageHero title={page.title} lead={page.description} />;
}

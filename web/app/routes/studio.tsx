import { PageHero } from "~/components/page-hero";
import { pageMeta } from "~/lib/meta";

const page = {
  title: "How We Build",
  description: "Our five-step process takes SaaS products from idea to exit.",
} as const;

export const meta = () => pageMeta(page);

export default function Page() {
  return <PageHero title={page.title} lead={page.description} />;
}

import type { MetaArgs } from "~/lib/meta";
import { categoryPages } from "~/content/resources";
import { CategoryPage } from "~/components/resources/category-page";
import { feedLink } from "~/lib/feed";
import { pageMeta } from "~/lib/meta";

export const meta = ({ location }: MetaArgs) => [...pageMeta(categoryPages.podcasts, { path: location.pathname }), feedLink];

export default function Page() {
  return <CategoryPage page="podcasts" />;
}

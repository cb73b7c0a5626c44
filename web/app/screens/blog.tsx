import { categoryPages } from "~/content/resources";
import { CategoryPage } from "~/components/resources/category-page";
import { feedLink } from "~/lib/feed";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => [...pageMeta(categoryPages.blog, { path }), feedLink];

export default function Page() {
  return <CategoryPage page="blog" />;
}

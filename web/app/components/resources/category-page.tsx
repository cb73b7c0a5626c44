import { categoryPages, resources } from "~/content/resources";
import { PageHero } from "~/components/page-hero";
import { ResourceTabs } from "~/components/resources/resource-tabs";
import { ResourceGrid } from "~/components/resources/resource-card";
import { sortResources } from "~/lib/resource-list";
import { inlineArt } from "~/lib/inline-art";

/** CategoryPage is /resources/blog, /resources/podcasts or /resources/templates: its resources, newest first. */
export function CategoryPage({ page }: { page: keyof typeof categoryPages }) {
  const { title, description, category } = categoryPages[page];
  const items = sortResources(
    resources.filter((r) => r.category === category),
    "newest",
  );
  return (
    <>
      <PageHero title={title} lead={description} />
      <ResourceTabs current={`/resources/${page}`} />
      <div data-first-screen="" className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        <ResourceGrid resources={items} headingLevel={2} firstArt={items[0] && inlineArt(items[0].image.src)} />
      </div>
    </>
  );
}

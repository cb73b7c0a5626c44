import { products, productsCta, productsHero, productsMeta } from "~/content/products";
import { PageHero } from "~/components/page-hero";
import { ProductCard } from "~/components/product-card";
import { CtaBand } from "~/components/cta-band";
import { pageMeta } from "~/lib/meta";
import { inlineArt } from "~/lib/inline-art";

export const meta = (path: string) => pageMeta(productsMeta, { path });

export default function Products() {
  return (
    <>
      <PageHero eyebrow={productsHero.eyebrow} title={productsHero.title} lead={productsHero.lead} />
      <section aria-label={productsHero.title} data-first-screen="" className="py-16 sm:py-20">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 sm:px-6 md:grid-cols-2 lg:grid-cols-3 lg:px-8">
          {products.map((p, i) => (
            <ProductCard key={p.id} product={p} art={i === 0 ? inlineArt(p.image) : undefined} />
          ))}
        </div>
      </section>
      <CtaBand {...productsCta} />
    </>
  );
}

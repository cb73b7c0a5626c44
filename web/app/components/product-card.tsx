import { ArrowRight } from "lucide-react";
import { isLive, productCardLabels, statusBadge, type Product } from "~/content/products";
import { buttonClass } from "~/components/ui/button";
import { ExternalLink } from "~/components/ui/external-link";
import { Image, type InlineArt } from "~/components/ui/image";
import { ProductAccent } from "~/components/product-accent";
import { StatusBadge } from "~/components/status-badge";

/**
 * ProductCard is a product in the portfolio list: picture, name, status,
 * description, 'Learn More', and for a live product an external 'Try Demo'.
 */
export function ProductCard({ product, art }: { product: Product; /** The picture drawn inline: for a card in the first screen. */ art?: InlineArt }) {
  const live = isLive(product);
  return (
    <article className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md dark:border-slate-800 dark:bg-slate-900">
      <ProductAccent from={product.primaryColor} to={product.secondaryColor} className="h-1.5 w-full" />
      <Image
        src={product.image}
        alt={product.imageAlt}
        width={640}
        height={480}
        art={art}
        className="aspect-[4/3] h-auto w-full border-b border-slate-200 object-cover dark:border-slate-800"
      />
      <div className="flex flex-1 flex-col p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-xl font-bold text-slate-900 dark:text-white">{product.name}</h2>
          <StatusBadge badge={statusBadge(product.status)} />
        </div>
        <p className="mt-1 text-sm font-medium text-brand-700 dark:text-brand-300">{product.tagline}</p>
        <p className="mt-3 flex-1 text-slate-600 dark:text-slate-300">{product.description}</p>
        <div className="mt-6 flex flex-wrap gap-3">
          <a href={`/products/${product.id}`} className={buttonClass(live ? "primary" : "secondary", "md")}>
            {productCardLabels.learnMore}
            <span className="sr-only">{productCardLabels.about(product.name)}</span>
            {!live && <ArrowRight aria-hidden="true" className="size-4" />}
          </a>
          {live && (
            <ExternalLink href={product.demoUrl} className={buttonClass("secondary", "md")}>
              {productCardLabels.tryDemo}
            </ExternalLink>
          )}
        </div>
      </div>
    </article>
  );
}

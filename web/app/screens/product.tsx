import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { findProduct, isLive, productNotFound } from "~/content/products";
import { buttonClass } from "~/components/ui/button";
import { LiveProductPage } from "~/components/product-live";
import { ComingSoonProductPage } from "~/components/product-coming-soon";
import { pageMeta } from "~/lib/meta";
import { faqPage, product as structuredProduct } from "~/lib/structured-data";

/** meta makes the head tags of the product page at path; an unknown productId gets Product Not Found's. */
export const meta = (path: string, { productId }: { productId: string }) => {
  const product = findProduct(productId);
  if (!product) return pageMeta({ title: productNotFound.title, description: productNotFound.text }, { path, noindex: true });
  const page = { title: `${product.name} – ${product.tagline}`, description: product.description };
  if (!isLive(product)) return pageMeta(page, { path });
  const jsonLd = [
    structuredProduct({ name: product.name, description: product.description, image: product.image, path, plans: product.pricing }),
    faqPage(product.faq),
  ];
  return pageMeta(page, { path, jsonLd });
};

/**
 * The product page: live mode for a product on sale, coming-soon mode for the
 * others, and 'Product Not Found' for any other id (prerendered at
 * /products/404, which the server answers with status 404 for unknown ids).
 */
export default function ProductPage({ productId, faq, waitlist }: { productId: string; faq?: ReactNode; waitlist?: ReactNode }) {
  const product = findProduct(productId);
  if (!product) return <ProductNotFound />;
  return isLive(product) ? <LiveProductPage product={product} faq={faq} /> : <ComingSoonProductPage product={product} waitlist={waitlist} />;
}

function ProductNotFound() {
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center sm:py-32">
      <p className="text-sm font-semibold tracking-widest text-brand-700 dark:text-brand-300">404</p>
      <h1 className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white">{productNotFound.title}</h1>
      <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{productNotFound.text}</p>
      <a href={productNotFound.back.href} className={buttonClass("primary", "lg", "mt-8")}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        {productNotFound.back.label}
      </a>
    </div>
  );
}

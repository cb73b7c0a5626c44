import { Link } from "react-router";
import type { Route } from "./+types/products.$productId";
import { PageHero } from "~/components/page-hero";
import { findProduct } from "~/content/products";
import { pageMeta } from "~/lib/meta";

const notFoundCopy = {
  title: "Product Not Found",
  text: "The product you're looking for doesn't exist in our portfolio.",
  back: { label: "View all products", href: "/products" },
} as const;

export const meta = ({ params }: Route.MetaArgs) => {
  const product = findProduct(params.productId);
  return product
    ? pageMeta({ title: product.name, description: product.description })
    : pageMeta({ title: notFoundCopy.title, description: notFoundCopy.text });
};

export default function ProductPage({ params }: Route.ComponentProps) {
  const product = findProduct(params.productId);
  if (!product) {
    return (
      <PageHero title={notFoundCopy.title} lead={notFoundCopy.text}>
        <Link to={notFoundCopy.back.href} className="mt-6 inline-block font-semibold text-brand-700 underline dark:text-brand-300">
          {notFoundCopy.back.label}
        </Link>
      </PageHero>
    );
  }
  return <PageHero title={product.name} lead={product.description} />;
}

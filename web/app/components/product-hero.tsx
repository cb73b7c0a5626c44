import type { ReactNode } from "react";
import { CheckCircle2 } from "lucide-react";
import { statusBadge, type Product } from "~/content/products";
import { Image, type InlineArt } from "~/components/ui/image";
import { ProductAccent } from "~/components/product-accent";
import { StatusBadge } from "~/components/status-badge";

/**
 * ProductHero opens a product page: status, name (the page's h1), tagline,
 * description, points, actions and picture. Given art, the picture is drawn
 * inline and paints with the text; otherwise it loads lazily, after the
 * first paint (on a phone it comes below the text, which is then the
 * largest paint).
 */
export function ProductHero({
  product,
  points,
  art,
  children,
}: {
  product: Product;
  points?: readonly string[];
  art?: InlineArt;
  children: ReactNode;
}) {
  return (
    <section className="relative overflow-hidden border-b border-slate-200 bg-gradient-to-b from-brand-50 via-white to-white dark:border-slate-800 dark:from-slate-900 dark:via-slate-950 dark:to-slate-950">
      <ProductAccent from={product.primaryColor} to={product.secondaryColor} className="absolute inset-x-0 top-0 h-1 w-full" />
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-2 lg:gap-12 lg:px-8 lg:py-20">
        <div>
          <StatusBadge badge={statusBadge(product.status)} />
          <h1 className="mt-4 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl dark:text-white">{product.name}</h1>
          <p className="mt-3 text-xl font-semibold text-brand-700 sm:text-2xl dark:text-brand-300">{product.tagline}</p>
          <p className="mt-5 text-lg text-slate-600 dark:text-slate-300">{product.longDescription}</p>
          {points && (
            <ul className="mt-6 space-y-3">
              {points.map((p) => (
                <li key={p} className="flex gap-3 text-slate-700 dark:text-slate-200">
                  <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-300" />
                  {p}
                </li>
              ))}
            </ul>
          )}
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">{children}</div>
        </div>
        <Image
          src={product.image}
          alt={product.imageAlt}
          width={640}
          height={480}
          art={art}
          lowPriority
          className="h-auto w-full rounded-2xl shadow-2xl ring-1 ring-slate-900/5 dark:ring-white/10"
        />
      </div>
    </section>
  );
}

import type { ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, type LinksFunction } from "react-router";
import stylesheet from "./app.css?url";
import { SiteHeader } from "~/components/site-header";
import { SiteFooter } from "~/components/site-footer";
import { CookieBanner } from "~/components/cookie-banner";
import { PageTransition } from "~/components/page-transition";
import { NotFound } from "~/components/not-found";
import { Toaster } from "~/components/ui/toast";
import { useSiteSearch } from "~/components/site-search";
import { themeScript } from "~/lib/theme";
import { holdFormsScript, useMarkHydrated } from "~/lib/hydrated";
import { jsonLdText, organization } from "~/lib/structured-data";

export const links: LinksFunction = () => [
  // precedence lets React put the stylesheet ahead of the module preloads, so it is not queued behind them.
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: ReactNode }) {
  return (
    // The theme script changes <html>'s class before React hydrates.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
        <script dangerouslySetInnerHTML={{ __html: holdFormsScript }} />
        <Meta />
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(organization) }} />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const search = useSiteSearch();
  useMarkHydrated();
  return (
    <>
      <SiteHeader onSearch={search.open} onSearchIntent={search.preload} />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <PageTransition>{children}</PageTransition>
      </main>
      <SiteFooter />
      <CookieBanner />
      <Toaster />
      {search.element}
    </>
  );
}

export default function App() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Shell>
        <NotFound />
      </Shell>
    );
  }
  console.error(error);
  return (
    <Shell>
      <div className="mx-auto max-w-2xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold">Something went wrong</h1>
        <p className="mt-4 text-slate-600 dark:text-slate-300">Please reload the page. If it keeps happening, contact us.</p>
      </div>
    </Shell>
  );
}

import { type RouteConfig, index, route } from "@react-router/dev/routes";

/** Every route of the site, in the order of the specification's route table. */
export default [
  index("routes/home.tsx"),
  route("studio", "routes/studio.tsx"),
  route("studio/service-packages", "routes/studio.service-packages.tsx"),
  route("studio/venture-portfolio", "routes/studio.venture-portfolio.tsx"),
  route("studio/success-stories", "routes/studio.success-stories.tsx"),
  route("products", "routes/products.tsx"),
  route("products/:productId", "routes/products.$productId.tsx"),
  route("resources", "routes/resources.tsx"),
  route("resources/blog", "routes/resources.blog.tsx"),
  route("resources/podcasts", "routes/resources.podcasts.tsx"),
  route("resources/templates", "routes/resources.templates.tsx"),
  route("resources/:slug", "routes/resources.$slug.tsx"),
  route("about", "routes/about.tsx"),
  route("contact", "routes/contact.tsx"),
  route("legal/terms", "routes/legal.terms.tsx"),
  route("legal/privacy", "routes/legal.privacy.tsx"),
  route("legal/cookies", "routes/legal.cookies.tsx"),
  route("legal/affiliate-disclosure", "routes/legal.affiliate-disclosure.tsx"),
  route("rss.xml", "routes/rss.xml.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;

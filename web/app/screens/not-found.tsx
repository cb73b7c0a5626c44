import type { MetaArgs } from "~/lib/meta";
import { NotFound } from "~/components/not-found";
import { notFound } from "~/content/site";
import { pageMeta } from "~/lib/meta";

export const meta = ({ location }: MetaArgs) => pageMeta({ title: notFound.title, description: notFound.text }, { path: location.pathname, noindex: true });

export default function NotFoundRoute() {
  return <NotFound />;
}

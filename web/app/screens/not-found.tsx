import { NotFound } from "~/components/not-found";
import { notFound } from "~/content/site";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => pageMeta({ title: notFound.title, description: notFound.text }, { path, noindex: true });

export default function NotFoundRoute() {
  return <NotFound />;
}

import { NotFound } from "~/components/not-found";
import { notFound } from "~/content/site";
import { pageMeta } from "~/lib/meta";

export const meta = () => pageMeta({ title: notFound.title, description: notFound.text });

export default function NotFoundRoute() {
  return <NotFound />;
}

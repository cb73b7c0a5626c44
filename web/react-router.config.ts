import type { Config } from "@react-router/dev/config";
import { prerenderPaths } from "./app/content/site-map";

export default {
  // Every page is rendered to HTML at build time; the Go binary serves them.
  ssr: false,
  prerender: () => prerenderPaths(),
} satisfies Config;

import { defineConfig } from "vitest/config";
import { markdownFrontmatter } from "./markdown-frontmatter";

export default defineConfig({
  plugins: [markdownFrontmatter()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    environment: "jsdom",
    setupFiles: ["./vitest.setup.ts"],
    include: ["app/**/*.test.{ts,tsx}", "scripts/**/*.test.mjs"],
  },
});

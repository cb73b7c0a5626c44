// The site is built by Astro: every page is prerendered to HTML, and only the
// interactive parts, React components placed with a client:* directive, ship
// JavaScript (decision 0007). The Go binary embeds build/client.
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";

/** client:interaction (app/islands/interaction-directive.ts): hydrate when the visitor is about to use the island. */
function interactionDirective() {
  return {
    name: "interaction-directive",
    hooks: {
      "astro:config:setup": ({ addClientDirective }) => {
        addClientDirective({ name: "interaction", entrypoint: new URL("./app/islands/interaction-directive.ts", import.meta.url).pathname });
      },
    },
  };
}

const backend = process.env.STUDIO_BACKEND ?? "http://localhost:8080";

export default defineConfig({
  srcDir: "./app",
  publicDir: "./public",
  outDir: "./build/client",
  output: "static",
  trailingSlash: "never",
  // Links are prefetched by the browser's speculation rules (layouts/Layout.astro), which cost no
  // script; Astro's prefetch module would be one more script in every page's head.
  prefetch: false,
  integrations: [react(), interactionDirective()],
  build: {
    format: "directory",
    assets: "assets",
    // Every stylesheet is a file: the CSP allows no inline styles.
    inlineStylesheets: "never",
  },
  vite: {
    plugins: [tailwindcss()],
    resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
    // Inline nothing as data: URIs; the CSP allows only our own files.
    build: { assetsInlineLimit: 0 },
    server: {
      // make dev: API calls go to the Go server (the console's too, its live updates over a websocket).
      proxy: {
        "/functions": backend,
        "/healthz": backend,
        "/auth/v1": backend,
        "/rest/v1": backend,
        "/realtime/v1": { target: backend, ws: true },
        "/admin/config.json": backend,
      },
      // The validation rules and the waitlist products are shared with the Go
      // server and live beside its code (internal/form, internal/signup).
      fs: { allow: [".", "../internal/form", "../internal/signup"] },
    },
  },
  // make dev: Astro with hot reload on :5173.
  server: { port: 5173 },
  devToolbar: { enabled: false },
});

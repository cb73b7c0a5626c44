import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

const backend = process.env.STUDIO_BACKEND ?? "http://localhost:8080";

export default defineConfig({
  // The footer shows this year until hydration replaces it with the visitor's.
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  plugins: [tailwindcss(), reactRouter()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  server: {
    // make dev: API calls go to the Go server.
    proxy: { "/functions": backend, "/healthz": backend },
    // The validation rules and the waitlist products are shared with the Go
    // server and live beside its code (internal/form, internal/signup).
    fs: { allow: [".", "../internal/form", "../internal/signup"] },
  },
  build: {
    // Inline nothing as data: URIs; the CSP allows only our own files.
    assetsInlineLimit: 0,
  },
});

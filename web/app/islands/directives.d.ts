declare namespace Astro {
  interface ClientDirectives {
    /** Hydrate when the visitor is about to use the island, or when woken by name (islands/interaction-directive.ts). */
    "client:interaction"?: boolean | { wake?: string };
  }
}

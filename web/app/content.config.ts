// The site reads its content from app/content as typed modules (and the resources' Markdown through lib/markdown.server.ts), not as Astro content collections.
export const collections = {};

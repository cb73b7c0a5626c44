/**
 * Pictures of public/images drawn inline, for the art of a page's first
 * screen: an inline <svg> needs no request, so it paints with the text, and
 * it is no candidate for the largest contentful paint. Build-time only (the
 * pictures are read by Vite when the pages are prerendered): a screen passes
 * the result to Image's art, never an island.
 */
import type { InlineArt } from "~/components/ui/image";

const pictures = import.meta.glob<string>("/public/images/**/*.svg", { query: "?raw", import: "default", eager: true });

/**
 * inlineArt returns the viewBox and the content of the SVG at src (a path of
 * the site, /images/…), its ids prefixed with the file's name so that two
 * pictures on one page keep their gradients apart. It fails the build for a
 * picture that is not there, or that carries a style or script (an element,
 * an attribute, an event handler, a javascript: link), which the page's
 * Content-Security-Policy would refuse.
 */
export function inlineArt(src: string): InlineArt {
  return artOf(src, pictures[`/public${src}`]);
}

/** artOf is inlineArt of the SVG text svg, read from src. */
export function artOf(src: string, svg: string | undefined): InlineArt {
  if (svg === undefined) throw new Error(`${src}: no SVG picture in public/ to draw inline`);
  if (/<style|\sstyle\s*=|<script|\son[a-z]+\s*=|javascript:/i.test(svg)) {
    throw new Error(`${src}: a style or script, which the Content-Security-Policy refuses inline`);
  }
  const root = /<svg\b[^>]*>/.exec(svg);
  const viewBox = root?.[0].match(/\sviewBox="([^"]+)"/)?.[1];
  if (!root || !viewBox) throw new Error(`${src}: no <svg viewBox> to draw inline`);
  const prefix = `${src.replace(/^.*\/|\.svg$/g, "")}-`;
  const markup = svg
    .slice(root.index + root[0].length, svg.lastIndexOf("</svg>"))
    .trim()
    .replace(/\sid="([^"]+)"/g, ` id="${prefix}$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${prefix}$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${prefix}$1"`);
  return { viewBox, markup };
}

import { chooseFallback } from "~/lib/image-fallback";

/** An SVG picture to draw inline (lib/inline-art.ts): its viewBox and its content. */
export type InlineArt = { readonly viewBox: string; readonly markup: string };

export type ImageProps = {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** Above the fold: load at once with high priority. Otherwise lazy. */
  priority?: boolean;
  /**
   * In the first screen beside its text, which is the largest paint: lazy,
   * and with low priority even once it is seen in the viewport (where Chrome
   * would raise it to high), so that it waits for what the paint needs.
   */
  lowPriority?: boolean;
  /**
   * The picture drawn inline instead (lib/inline-art.ts), for the art of a
   * page's first screen: it paints with the text, with no request.
   */
  art?: InlineArt;
  /** A fallback to use instead of the one chosen from the alt text and source. */
  fallback?: string;
  className?: string;
};

/**
 * Image is the one image component of the site. Width and height are always
 * set, so nothing shifts while it loads. When the picture fails, the page's
 * imageFallbackScript swaps it to the fallback named in data-fallback (chosen
 * by keywords in the alt text or source), and when that fails too, to an
 * inline picture that always loads. It needs no JavaScript of its own, so it
 * works in static HTML and in islands alike. Given art, it is an inline <svg>
 * with the same size, classes and text alternative (none when alt is empty),
 * covering its box as the site's pictures do (object-cover).
 */
export function Image({ src, alt, width, height, priority = false, lowPriority = false, art, fallback, className }: ImageProps) {
  if (art) {
    const label = alt ? { role: "img", "aria-label": alt } : { "aria-hidden": true };
    // slice: the picture covers its box, as an <img> with object-cover does.
    return (
      <svg
        viewBox={art.viewBox}
        preserveAspectRatio="xMidYMid slice"
        width={width}
        height={height}
        {...label}
        className={className}
        dangerouslySetInnerHTML={{ __html: art.markup }}
      />
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : lowPriority ? "low" : undefined}
      decoding="async"
      data-fallback={fallback ?? chooseFallback(alt, src)}
      className={className}
    />
  );
}

import { chooseFallback } from "~/lib/image-fallback";

export type ImageProps = {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** Above the fold: load at once with high priority. Otherwise lazy. */
  priority?: boolean;
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
 * works in static HTML and in islands alike.
 */
export function Image({ src, alt, width, height, priority = false, fallback, className }: ImageProps) {
  return (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding="async"
      data-fallback={fallback ?? chooseFallback(alt, src)}
      className={className}
    />
  );
}

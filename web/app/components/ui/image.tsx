import { useCallback, useEffect, useRef, useState } from "react";
import { chooseFallback, nextSource } from "~/lib/image-fallback";

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
 * set, so nothing shifts while it loads. When the picture fails it swaps to a
 * fallback chosen by keywords in the alt text or source, and when that fails
 * too, to an inline picture that always loads.
 */
export function Image({ src, alt, width, height, priority = false, fallback, className }: ImageProps) {
  const [current, setCurrent] = useState(src);
  const ref = useRef<HTMLImageElement>(null);
  const fallbackSrc = fallback ?? chooseFallback(alt, src);

  const handleError = useCallback(() => {
    setCurrent((failed) => nextSource(failed, fallbackSrc) ?? failed);
  }, [fallbackSrc]);

  useEffect(() => setCurrent(src), [src]);

  // A prerendered image may have failed before React attached onError.
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) handleError();
  }, [handleError]);

  return (
    <img
      ref={ref}
      src={current}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding="async"
      onError={handleError}
      className={className}
    />
  );
}

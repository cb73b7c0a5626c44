import { useId } from "react";

/**
 * ProductAccent is a thin bar in a product's two brand colours. It is drawn
 * as SVG because the colours are data and the CSP forbids inline styles;
 * SVG presentation attributes (stop-color) are not styles.
 */
export function ProductAccent({ from, to, className }: { from: string; to: string; className?: string }) {
  const id = useId();
  return (
    <svg aria-hidden="true" focusable="false" preserveAspectRatio="none" viewBox="0 0 100 4" className={className}>
      <defs>
        <linearGradient id={id} x1="0" x2="1" y1="0" y2="0">
          <stop offset="0" stopColor={from} />
          <stop offset="1" stopColor={to} />
        </linearGradient>
      </defs>
      <rect width="100" height="4" fill={`url(#${id})`} />
    </svg>
  );
}

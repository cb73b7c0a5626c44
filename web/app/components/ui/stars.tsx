import { Star } from "lucide-react";

const MAX_STARS = 5;

/** Stars shows a rating of 1 to 5 stars; screen readers hear "Rated N out of 5 stars". */
export function Stars({ rating }: { rating: number }) {
  return (
    <div role="img" aria-label={`Rated ${rating} out of ${MAX_STARS} stars`} className="flex gap-0.5">
      {Array.from({ length: MAX_STARS }, (_, i) => (
        <Star
          key={i}
          aria-hidden="true"
          className={
            i < rating ? "size-4 fill-amber-400 text-amber-400" : "size-4 text-slate-300 dark:text-slate-600"
          }
        />
      ))}
    </div>
  );
}

import { Star } from 'lucide-react';

const MAX_STARS = 5;

/** Filled stars for a rating out of 5, read out as "Rated N out of 5". Half points round to the nearest star. */
export function StarRating({ rating, className = '' }: { rating: number; className?: string }) {
  const filled = Math.round(rating);
  return (
    <span
      role="img"
      aria-label={`Rated ${rating} out of ${MAX_STARS}`}
      className={`inline-flex gap-0.5 ${className}`}
    >
      {Array.from({ length: MAX_STARS }, (_, index) => (
        <Star
          // biome-ignore lint/suspicious/noArrayIndexKey: the stars are positions, not items
          key={index}
          aria-hidden="true"
          className={`size-4 ${index < filled ? 'fill-warning text-warning' : 'fill-muted text-muted-foreground/40'}`}
        />
      ))}
    </span>
  );
}

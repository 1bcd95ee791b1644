import type { TestimonialView } from '@licensestore/contract/testimonials';
import { Quote } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { StarRating } from '@/components/ui/star-rating';

/**
 * A calendar date (YYYY-MM-DD) as "Sep 14, 2024". Read as UTC and shown in UTC, so no time zone moves it to the
 * day before.
 */
const formatDate = (date: string): string => {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return parsed.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
};

export function TestimonialCard({ testimonial }: { testimonial: TestimonialView }) {
  const { customerName, rating, comment, location, date } = testimonial;
  return (
    <figure className="flex h-full flex-col gap-4 rounded-lg border border-border bg-card p-6 text-card-foreground shadow-sm">
      <div className="flex items-center justify-between">
        <StarRating rating={rating} />
        <Quote aria-hidden="true" className="size-6 text-primary/30" />
      </div>
      <blockquote className="flex-1 leading-relaxed">
        <p>"{comment}"</p>
      </blockquote>
      <figcaption className="flex items-center gap-3 border-t border-border pt-4">
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground"
        >
          {customerName.trim().charAt(0).toUpperCase()}
        </span>
        <span className="flex min-w-0 flex-col">
          <span className="font-semibold">{customerName}</span>
          <span className="text-sm text-muted-foreground">
            {location} · <time dateTime={date}>{formatDate(date)}</time>
          </span>
        </span>
      </figcaption>
    </figure>
  );
}

export function TestimonialCardSkeleton() {
  return (
    <div
      data-testid="testimonial-skeleton"
      className="flex flex-col gap-4 rounded-lg border border-border bg-card p-6"
    >
      <Skeleton className="h-4 w-24" />
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-5/6" />
      <Skeleton className="h-4 w-2/3" />
      <div className="flex items-center gap-3 border-t border-border pt-4">
        <Skeleton className="size-10 rounded-full" />
        <div className="flex flex-1 flex-col gap-2">
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-3 w-2/3" />
        </div>
      </div>
    </div>
  );
}

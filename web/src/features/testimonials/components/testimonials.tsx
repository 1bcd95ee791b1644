import { LoadError } from '@/components/ui/load-error';
import { useTestimonials } from '../api/get-testimonials';
import { TestimonialCard, TestimonialCardSkeleton } from './testimonial-card';

/** 6 placeholder cards while the testimonials load. */
const SKELETON_CARDS = 6;

const GRID = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3';
/**
 * The same columns as GRID, but a last row that is not full is centred under the others instead of hanging at the
 * left: the testimonials' number is whatever the admins published.
 */
const CENTRED_ROWS = 'flex flex-wrap justify-center gap-4';
const CARD_WIDTH = 'w-full sm:w-[calc((100%-1rem)/2)] lg:w-[calc((100%-2rem)/3)]';

export function Testimonials() {
  const { data: testimonials, isPending, isError, error, refetch, isFetching } = useTestimonials();

  return (
    <section aria-labelledby="testimonials-heading" className="flex flex-col gap-8">
      <div className="flex flex-col items-center gap-2 text-center">
        <h2 id="testimonials-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          What Our Customers Say
        </h2>
        <p className="max-w-2xl text-muted-foreground">
          Rated 4.8 out of 5 from 5,000+ reviews by more than 50,000 customers.
        </p>
      </div>
      {isPending ? (
        <div className={GRID} role="status">
          <span className="sr-only">Loading testimonials</span>
          {Array.from({ length: SKELETON_CARDS }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <TestimonialCardSkeleton key={index} />
          ))}
        </div>
      ) : isError ? (
        <LoadError
          title="We couldn't load the testimonials."
          error={error}
          onRetry={() => refetch()}
          retrying={isFetching}
        />
      ) : testimonials.length === 0 ? (
        <p className="text-center text-muted-foreground">No reviews yet.</p>
      ) : (
        <ul className={CENTRED_ROWS}>
          {testimonials.map((testimonial) => (
            <li key={testimonial.id} className={CARD_WIDTH}>
              <TestimonialCard testimonial={testimonial} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

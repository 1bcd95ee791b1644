import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** A customer's review shown on the home page. */
export interface Testimonial {
  id: string;
  customerName: string;
  /** 1 to 5. */
  rating: number;
  comment: string;
  location: string;
  /** Calendar date, ISO `YYYY-MM-DD`. */
  date: string;
}

export const testimonialsQueryKey = ['/api/testimonials'] as const;

export const getTestimonials = (): Promise<Testimonial[]> =>
  getJson<Testimonial[]>(testimonialsQueryKey.join('/'), { on401: 'throw' });

export const testimonialsQueryOptions = () =>
  queryOptions({ queryKey: testimonialsQueryKey, queryFn: getTestimonials });

export const useTestimonials = () => useQuery(testimonialsQueryOptions());

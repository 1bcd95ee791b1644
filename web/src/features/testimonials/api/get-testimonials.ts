import type { TestimonialView } from '@licensestore/contract/testimonials';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

export const testimonialsQueryKey = ['/api/testimonials'] as const;

export const getTestimonials = (): Promise<TestimonialView[]> =>
  getJson<TestimonialView[]>(testimonialsQueryKey.join('/'), { on401: 'throw' });

export const testimonialsQueryOptions = () =>
  queryOptions({ queryKey: testimonialsQueryKey, queryFn: getTestimonials });

export const useTestimonials = () => useQuery(testimonialsQueryOptions());

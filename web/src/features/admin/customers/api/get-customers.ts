import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** A customer as GET /api/customers answers it (spec section 3): derived from orders, grouped by e-mail. */
export interface CustomerView {
  email: string;
  name: string;
  orderCount: number;
  /** A decimal string ("149.50"): what the customer's orders kept (cancelled and refunded ones left out). */
  totalSpent: string;
  lastOrderDate: string;
}

export const customersQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/customers'],
    queryFn: () => getJson<CustomerView[]>('/api/customers', { on401: 'throw' }),
  });

export const useCustomers = () => useQuery(customersQueryOptions());

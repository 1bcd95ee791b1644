import type { CustomerView } from '@licensestore/contract/customers';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';
import { usePagedQuery } from '@/lib/paged-query';

/** The back office's paged list of customers and each customer's page; their keys start with this path. */
export const CUSTOMER_PAGES_PATH = '/api/admin/customers';

/** One page of customers: `q`, `sort`, `dir` and `cursor` as the URL has them. */
export const useCustomerPage = (params: Readonly<Record<string, string>>) =>
  usePagedQuery<CustomerView>(CUSTOMER_PAGES_PATH, params);

// A 401 on an admin screen means the session ended: an error to show, not an empty answer.
export const customerQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [CUSTOMER_PAGES_PATH, email],
    queryFn: () =>
      getJson<CustomerView>(`${CUSTOMER_PAGES_PATH}/${encodeURIComponent(email)}`, { on401: 'throw' }),
  });

export const useCustomer = (email: string) => useQuery(customerQueryOptions(email));

/** The back office's link to a customer's page. */
export const customerHref = (email: string) => `/admin/customers/${encodeURIComponent(email)}`;

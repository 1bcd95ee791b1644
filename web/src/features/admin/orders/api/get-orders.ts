import { backOfficeOrderSchema, orderItemsSchema } from '@licensestore/contract/orders';
import type { OrderView } from '@licensestore/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson, getTaggedJson } from '@/lib/api';
import { usePagedQuery } from '@/lib/paged-query';

/**
 * Every order query key starts with '/api/orders' (a query key's parts joined by slashes are the path it reads), so invalidating that
 * prefix refreshes the list, each order, its items and its timeline at once.
 */
export const ORDERS_KEY = ['/api/orders'] as const;

// A 401 on an admin screen means the session ended: an error to show, not an empty answer.

/**
 * The back office gets an order with its refunds, the money refunded and what the store keeps, and the ETag of the
 * version it shows, which the page's changes send as If-Match. A key of its own: the storefront's confirmation page
 * keeps the same URL's body alone under [...ORDERS_KEY, orderId]. Its money is checked against the contract.
 */
export const orderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...ORDERS_KEY, orderId, 'tagged'],
    queryFn: async () => {
      const { value, etag } = await getTaggedJson<unknown>(`/api/orders/${encodeURIComponent(orderId)}`);
      return { value: backOfficeOrderSchema.parse(value), etag };
    },
  });

export const orderItemsQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...ORDERS_KEY, orderId, 'items'],
    queryFn: async () =>
      orderItemsSchema.parse(
        await getJson<unknown>(`/api/orders/${encodeURIComponent(orderId)}/items`, { on401: 'throw' }),
      ),
  });

/** The back office's paged list of orders; its keys start with this path. */
export const ORDER_PAGES_PATH = '/api/admin/orders';

/** One page of orders: `status`, `from`, `to`, `customer`, `q`, `sort`, `dir` and `cursor` as the URL has them. */
export const useOrderPage = (params: Readonly<Record<string, string>>) =>
  usePagedQuery<OrderView>(ORDER_PAGES_PATH, params);
export const useOrder = (orderId: string) => useQuery(orderQueryOptions(orderId));
export const useOrderItems = (orderId: string) => useQuery(orderItemsQueryOptions(orderId));

import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** One line of an order (spec section 3); `price` is the unit price, keys are null/empty until delivered. */
export interface MyOrderItem {
  id: string;
  productName: string;
  quantity: number;
  price: string;
  licenseKey: string | null;
  /** One per unit delivered so far; `licenseKey` is the first of them. */
  licenseKeys: string[];
}

export interface MyOrder {
  id: string;
  customerName: string;
  customerEmail: string;
  total: string;
  status: string;
  createdAt: string | null;
  items: MyOrderItem[];
}

/** The URL is the key (spec section 7): a checkout that places an order can invalidate it by this name. */
export const myOrdersQueryKey = ['/api/my-orders'] as const;

/** null when the session has ended since the page learnt who is signed in (a 401). */
export const myOrdersQueryOptions = () =>
  queryOptions({ queryKey: myOrdersQueryKey, queryFn: () => getJson<MyOrder[]>('/api/my-orders') });

export const useMyOrders = () => useQuery(myOrdersQueryOptions());

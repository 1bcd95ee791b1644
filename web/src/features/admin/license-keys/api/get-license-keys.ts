import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/**
 * The inventory's query keys all start with '/api/license-keys' (the list, the stock), so one invalidation of the
 * prefix refreshes both after a change.
 */
export const LICENSE_KEYS_KEY = ['/api/license-keys'] as const;

/** A key as GET /api/license-keys answers it: in clear, for admins (spec section 3). */
export interface LicenseKeyView {
  id: string;
  productId: string;
  /** Null once the product has been deleted. */
  productName: string | null;
  /** Null when the stored key does not open (the server logs it). */
  key: string | null;
  assigned: boolean;
  orderId: string | null;
  createdAt: string;
}

/** Available and assigned keys of one product, and units of paid orders still waiting for one. */
export interface StockView {
  productId: string;
  productName: string;
  available: number;
  assigned: number;
  waiting: number;
  lowStock: boolean;
}

export const licenseKeysQueryOptions = () =>
  queryOptions({
    queryKey: LICENSE_KEYS_KEY,
    queryFn: () => getJson<LicenseKeyView[]>('/api/license-keys', { on401: 'throw' }),
  });

export const stockQueryOptions = () =>
  queryOptions({
    queryKey: [...LICENSE_KEYS_KEY, 'stock'],
    queryFn: () => getJson<StockView[]>('/api/license-keys/stock', { on401: 'throw' }),
  });

export const useLicenseKeys = () => useQuery(licenseKeysQueryOptions());
export const useStock = () => useQuery(stockQueryOptions());

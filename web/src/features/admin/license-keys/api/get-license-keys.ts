import type { KeyListItem, StockView } from '@licensestore/contract/license-keys';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';
import { usePagedQuery } from '@/lib/paged-query';

/**
 * The stock and key histories' query keys start with '/api/license-keys', so one invalidation of the prefix
 * refreshes them after a change.
 */
export const LICENSE_KEYS_KEY = ['/api/license-keys'] as const;

/** The back office's paged list of keys; its query keys start with this path. */
export const KEY_LIST_PATH = '/api/admin/license-keys';

export const stockQueryOptions = () =>
  queryOptions({
    queryKey: [...LICENSE_KEYS_KEY, 'stock'],
    queryFn: () => getJson<StockView[]>('/api/license-keys/stock', { on401: 'throw' }),
  });

/** One page of keys: the URL's filters (`product`, `status`) and cursor, as the server takes them. */
export const useKeyPage = (params: Readonly<Record<string, string>>) =>
  usePagedQuery<KeyListItem>(KEY_LIST_PATH, params);
export const useStock = () => useQuery(stockQueryOptions());

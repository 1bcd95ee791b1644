import type { KeyHistoryView } from '@licensestore/shared/key-history';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

export type { KeyHistoryEntry, KeyHistoryView } from '@licensestore/shared/key-history';

export const keyHistoryQueryOptions = (keyId: string) =>
  queryOptions({
    queryKey: ['/api/license-keys', keyId, 'history'],
    queryFn: () =>
      getJson<KeyHistoryView>(`/api/license-keys/${encodeURIComponent(keyId)}/history`, { on401: 'throw' }),
  });

export const useKeyHistory = (keyId: string) => useQuery(keyHistoryQueryOptions(keyId));

import type { KeyHistoryView } from '@licensestore/domain/key-history';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';
import { keyHistoryKey } from '@/lib/reveal-license-key';

export type { KeyHistoryEntry, KeyHistoryView } from '@licensestore/domain/key-history';

export const keyHistoryQueryOptions = (keyId: string) =>
  queryOptions({
    queryKey: keyHistoryKey(keyId),
    queryFn: () =>
      getJson<KeyHistoryView>(`/api/license-keys/${encodeURIComponent(keyId)}/history`, { on401: 'throw' }),
  });

export const useKeyHistory = (keyId: string) => useQuery(keyHistoryQueryOptions(keyId));

import type { Page } from '@licensestore/contract/paging';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/**
 * One page of a back-office list. The key is `[path, params]`, so invalidating `[path]` refreshes every page and
 * filter of that list at once. The page shown stays until the next one arrives (no table flashing empty between
 * pages); a 401 means the session ended, an error to show.
 */
export const pagedQueryOptions = <T>(path: string, params: Readonly<Record<string, string>>) =>
  queryOptions({
    queryKey: [path, params] as const,
    queryFn: () => {
      const search = new URLSearchParams(params).toString();
      return getJson<Page<T>>(search ? `${path}?${search}` : path, { on401: 'throw' });
    },
    placeholderData: keepPreviousData,
  });

export const usePagedQuery = <T>(path: string, params: Readonly<Record<string, string>>) =>
  useQuery(pagedQueryOptions<T>(path, params));

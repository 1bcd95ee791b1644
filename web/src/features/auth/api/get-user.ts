import type { CurrentUserView } from '@licensestore/contract/customer-auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

export const userQueryKey = ['/api/auth/user'] as const;

export const userQueryOptions = () =>
  queryOptions({ queryKey: userQueryKey, queryFn: () => getJson<CurrentUserView>('/api/auth/user') });

/** Sign-in state comes from the current-user call. */
export function useUser() {
  const { data, isPending } = useQuery(userQueryOptions());
  return { user: data ?? null, isAuthenticated: Boolean(data), isPending };
}

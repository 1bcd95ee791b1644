import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/** The signed-in customer (the header reads profileImageUrl); the api answers null when signed out. */
export interface User {
  id: string;
  email: string;
  profileImageUrl: string | null;
}

export const userQueryKey = ['/api/auth/user'] as const;

export const userQueryOptions = () =>
  queryOptions({ queryKey: userQueryKey, queryFn: () => getJson<User | null>('/api/auth/user') });

/** Sign-in state comes from the current-user call. */
export function useUser() {
  const { data, isPending } = useQuery(userQueryOptions());
  return { user: data ?? null, isAuthenticated: Boolean(data), isPending };
}

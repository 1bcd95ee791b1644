import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { getJson } from '@/lib/api';

export const adminStatusQueryKey = ['/api/admin/status'] as const;

/**
 * Whether the visitor is signed in as an admin. A failed check answers false rather than failing (spec section 6):
 * a rejected query would keep its last answer, and a session that has just ended must not keep showing admin pages.
 */
async function fetchIsAdmin(): Promise<boolean> {
  try {
    const status = await getJson<{ isAdmin: boolean }>(adminStatusQueryKey[0]);
    return status?.isAdmin === true;
  } catch {
    return false;
  }
}

export const adminStatusQueryOptions = () =>
  queryOptions({ queryKey: adminStatusQueryKey, queryFn: fetchIsAdmin });

/** The admin status, checked again on every route change (spec section 6). */
export function useAdminStatus() {
  const { data, isPending, refetch } = useQuery(adminStatusQueryOptions());
  const [location] = useLocation();
  const checkedFor = useRef(location);

  useEffect(() => {
    // The first check is the query's own fetch; only later locations need another.
    if (checkedFor.current === location) return;
    checkedFor.current = location;
    // A check already under way (the one a sign-in starts) answers for this location too.
    void refetch({ cancelRefetch: false });
  }, [location, refetch]);

  return { isAdmin: data === true, isPending };
}

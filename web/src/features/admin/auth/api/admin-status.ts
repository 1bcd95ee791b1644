import type { AdminStatusView } from '@licensestore/contract/back-office';
import type { BackOfficeRole } from '@licensestore/domain/back-office';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { getJson } from '@/lib/api';

export const adminStatusQueryKey = ['/api/admin/status'] as const;

/** Who is signed in to the back office, and as what. */
export interface BackOfficeSession {
  role: BackOfficeRole;
  username: string | null;
}

/**
 * The visitor's back-office session, or null for everyone else. A failed check answers null (not an admin) rather
 * than failing: a rejected query would keep its last answer, and a session that has just ended must not keep
 * showing admin pages. An auditor is no admin (`isAdmin` is false) but is let in, read-only.
 */
async function fetchSession(): Promise<BackOfficeSession | null> {
  try {
    const status = await getJson<AdminStatusView>(adminStatusQueryKey[0]);
    if (!status) return null;
    if (status.isAdmin === true) return { role: 'admin', username: status.username ?? null };
    return status.role === 'auditor' ? { role: 'auditor', username: status.username ?? null } : null;
  } catch {
    return null;
  }
}

export const adminStatusQueryOptions = () =>
  queryOptions({ queryKey: adminStatusQueryKey, queryFn: fetchSession });

/** The signed-in back-office user, as last checked (screens render only once it is known: see AdminAccess). */
export const useBackOfficeSession = () => useQuery(adminStatusQueryOptions()).data ?? null;

/**
 * Whether the screens may only be looked at: auditors change nothing, so their screens leave out every control
 * that would (the server refuses them anyway).
 */
export const useReadOnly = () => useBackOfficeSession()?.role !== 'admin';

/** The back-office role, checked again on every route change. */
export function useAdminStatus() {
  const { data, isPending, refetch } = useQuery(adminStatusQueryOptions());
  const [location] = useLocation();
  const checkedFor = useRef(location);

  useEffect(() => {
    // The first check is the query's own fetch; only later locations need another.
    if (checkedFor.current === location) return;
    checkedFor.current = location;
    // Always a check of its own: one under way started before this location was entered.
    void refetch();
  }, [location, refetch]);

  return { session: data ?? null, isAdmin: data?.role === 'admin', isPending };
}

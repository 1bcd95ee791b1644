import type { ReactNode } from 'react';
import { AdminLoading } from '../../layout/components/admin-loading';
import { useAdminStatus } from '../api/admin-status';

/**
 * Admin screens for back-office users (admins, and auditors read-only): 'Loading...' until the
 * first status check answers, then the login screen for everyone else, whatever admin path they asked for. The
 * server guards every admin call too; this only decides what to show.
 */
export function AdminAccess({ loginScreen, children }: { loginScreen: ReactNode; children: ReactNode }) {
  const { session, isPending } = useAdminStatus();
  if (isPending) return <AdminLoading />;
  return session ? children : loginScreen;
}

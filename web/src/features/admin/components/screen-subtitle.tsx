import { useReadOnly } from '../auth/api/admin-status';

/**
 * A screen's subtitle under its heading: what an admin does there, or for a read-only session (an auditor) a
 * sentence that promises no changes, since the controls that would make them are left out.
 */
export function ScreenSubtitle({ admin, readOnly }: { admin: string; readOnly: string }) {
  return <p className="text-muted-foreground">{useReadOnly() ? readOnly : admin}</p>;
}

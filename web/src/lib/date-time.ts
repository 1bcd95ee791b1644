/**
 * A moment as the back office shows it: date and time to the second in the viewer's locale and time zone
 * ("11/26/2026, 6:42:56 PM"), so orders and events of the same day stay apart. `missing` stands in for an absent or
 * unreadable moment.
 */
export function formatDateTime(iso: string | null | undefined, missing = 'N/A'): string {
  if (!iso) return missing;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? missing : date.toLocaleString();
}

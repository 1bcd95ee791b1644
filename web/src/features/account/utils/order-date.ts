const LONG_DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

/** The order's created date in long form ('November 24, 2026', the viewer's time zone), or 'N/A'. */
export function orderDate(createdAt: string | null | undefined): string {
  if (!createdAt) return 'N/A';
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? 'N/A' : LONG_DATE.format(date);
}

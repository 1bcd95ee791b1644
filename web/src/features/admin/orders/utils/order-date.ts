/** A date in the viewer's locale, or 'N/A' when missing or unreadable (spec section 2, Orders). */
export function localeDate(iso: string | null | undefined): string {
  if (!iso) return 'N/A';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString();
}

/** Date and time to the second, for events that happen within moments of each other. */
export function localeDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

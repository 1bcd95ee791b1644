const pad = (value: number) => String(value).padStart(2, '0');

/** A moment as a `datetime-local` input shows it: the viewer's local time, to the second. */
export function localInputValue(iso: string): string {
  const date = new Date(iso);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/**
 * What a `datetime-local` input holds (local time, seconds optional) as an ISO date-time in UTC, or '' when it
 * holds nothing readable. A moment picked to the second means the whole second: events within it count.
 */
export function isoFromLocalInput(value: string, { endOfSecond = false } = {}): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  if (endOfSecond) date.setMilliseconds(999);
  return date.toISOString();
}

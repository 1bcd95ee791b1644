// The rules of a product's download link and notes, shared by the API, the workers and the browser (no imports).

export const DOWNLOAD_URL_MAX_LENGTH = 2000;
export const INSTALLATION_NOTES_MAX_LENGTH = 1000;

/**
 * Why `text` cannot be a product's official download link, or null when it can: an absolute https URL (what the
 * buyer follows from an e-mail must not be downgraded to http, nor be a javascript: or data: link) to a named host,
 * with no user name or password in it (they would be sent to every buyer).
 */
export function downloadUrlProblem(text: string): string | null {
  if (text.length > DOWNLOAD_URL_MAX_LENGTH) return `must be at most ${DOWNLOAD_URL_MAX_LENGTH} characters`;
  if (!URL.canParse(text)) return 'must be an absolute URL starting with https://';
  const url = new URL(text);
  if (url.protocol !== 'https:') return `must start with https:// (not ${url.protocol})`;
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (!/^[^.]+(\.[^.]+)+$/.test(url.hostname)) return 'must name a host like www.vendor.com';
  return null;
}

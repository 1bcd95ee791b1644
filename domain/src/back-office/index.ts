// Back-office roles and usernames: rules shared by the API, its tables and the back office (browser-safe).

/** Admins run the store; auditors see every back-office screen read-only and change nothing. */
export const BACK_OFFICE_ROLES = ['admin', 'auditor'] as const;
export type BackOfficeRole = (typeof BACK_OFFICE_ROLES)[number];

/**
 * What makes two usernames the same one: compatibility-normalised (NFKC: fullwidth `ａｄｍｉｎ` is `admin`) and
 * case-folded (upper- then lower-cased, so `ß` and `SS` agree). Unique among users, and what a sign-in looks up.
 */
export const usernameKey = (username: string): string =>
  username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

// Back-office users and roles: types and rules shared by the API and the back office (browser-safe).

/** Admins run the store; auditors see every back-office screen read-only and change nothing. */
export const BACK_OFFICE_ROLES = ['admin', 'auditor'] as const;
export type BackOfficeRole = (typeof BACK_OFFICE_ROLES)[number];

/**
 * Every back-office password's shortest length (Team screen, users:add, ADMIN_PASSWORD): long enough that the login
 * throttle makes guessing hopeless. The API also refuses passwords a strength estimator finds easy to guess.
 */
export const MIN_PASSWORD_LENGTH = 12;
/** The login form's caps; a user who could be created but not sign in would be a trap. */
export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_USERNAME_LENGTH = 200;

/**
 * What makes two usernames the same one: compatibility-normalised (NFKC: fullwidth `ａｄｍｉｎ` is `admin`) and
 * case-folded (upper- then lower-cased, so `ß` and `SS` agree). Unique among users, and what a sign-in looks up.
 */
export const usernameKey = (username: string): string =>
  username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

/** GET /api/admin/users: one row of the Team screen. */
export interface BackOfficeUserView {
  id: string;
  username: string;
  role: BackOfficeRole;
  createdAt: string;
}

/**
 * GET /api/admin/status. `isAdmin` keeps the spec's meaning (may change things); `role` lets auditors into the back
 * office read-only. Both are null/false for everyone else.
 */
export interface AdminStatusView {
  isAdmin: boolean;
  role: BackOfficeRole | null;
  username: string | null;
}

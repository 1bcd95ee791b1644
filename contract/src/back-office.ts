// Signing in to the back office, and its team.
import { BACK_OFFICE_ROLES, type BackOfficeRole } from '@licensestore/domain/back-office';
import { storableText } from '@licensestore/domain/text';
import { z } from 'zod';

/**
 * Every back-office password's shortest length (Team screen, users:add, ADMIN_PASSWORD): long enough that the login
 * throttle makes guessing hopeless. The API also refuses passwords a strength estimator finds easy to guess.
 */
export const MIN_PASSWORD_LENGTH = 12;
/** The login form's caps; a user who could be created but not sign in would be a trap. */
export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_USERNAME_LENGTH = 200;

/** POST /api/admin/login. */
export const adminLoginRequestSchema = z.object({
  username: storableText({ max: MAX_USERNAME_LENGTH }),
  password: storableText({ max: MAX_PASSWORD_LENGTH, trim: false }),
});
export type AdminLoginRequest = z.input<typeof adminLoginRequestSchema>;

/**
 * POST /api/admin/users: a new back-office user. The api refuses besides a password an estimator finds easy to
 * guess (the estimator's dictionaries stay on the server).
 */
export const newBackOfficeUserRequestSchema = z.object({
  username: storableText({ max: MAX_USERNAME_LENGTH }).pipe(
    z.string().regex(/^[^\s\p{C}]*$/u, 'must not contain spaces or control characters'),
  ),
  password: storableText({ min: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH, trim: false }),
  role: z.enum(BACK_OFFICE_ROLES, { error: `must be one of ${BACK_OFFICE_ROLES.join(', ')}` }),
});
export type NewBackOfficeUserRequest = z.input<typeof newBackOfficeUserRequestSchema>;

/**
 * GET /api/admin/team: the Team screen's filter, beside the paging parameters; one role reads
 * `admin_users_role_created_idx`.
 */
export const teamFiltersSchema = z.object({
  role: z.enum(BACK_OFFICE_ROLES, { error: `must be one of ${BACK_OFFICE_ROLES.join(', ')}` }).optional(),
});
export type TeamFilters = z.output<typeof teamFiltersSchema>;

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

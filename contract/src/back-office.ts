// Signing in to the back office, and its team.
import {
  BACK_OFFICE_ROLES,
  MAX_PASSWORD_LENGTH,
  MAX_USERNAME_LENGTH,
  MIN_PASSWORD_LENGTH,
} from '@licensestore/shared/back-office';
import { storableText } from '@licensestore/shared/text';
import { z } from 'zod';

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

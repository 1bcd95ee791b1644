import { type AdminStatusView, adminLoginRequestSchema } from '@licensestore/contract/back-office';
import type { CurrentUserView } from '@licensestore/contract/customer-auth';
import { UnauthenticatedError } from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import { type CookieOptions, Router } from 'express';
import type { Kysely } from 'kysely';
import { parseRequest } from '../http/validation.js';
import { findAdminByUsername } from './admins.js';
import { sessionToken } from './guards.js';
import type { LoginThrottle } from './login-throttle.js';
import { unknownUserHash, verifyPassword } from './passwords.js';
import { SESSION_COOKIE, type SessionStore } from './sessions.js';

export interface AuthRoutesDeps {
  db: Kysely<Database>;
  sessions: SessionStore;
  throttle: LoginThrottle;
  /** Secure cookies when the site is served over https. */
  secureCookies: boolean;
}

export function authRoutes({ db, sessions, throttle, secureCookies }: AuthRoutesDeps): Router {
  const router = Router();
  // No Max-Age: the browser forgets the cookie when it closes; Redis expires the session after 12 idle hours.
  const cookieOptions: CookieOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: secureCookies };
  // Derive the decoy hash now, so the first sign-in with an unknown username costs no more than any other.
  void unknownUserHash();

  router.post('/admin/login', async (req, res) => {
    const { username, password } = parseRequest(adminLoginRequestSchema, req.body);
    const ip = req.ip ?? 'unknown';
    await throttle.attempt(username, ip);
    const admin = await findAdminByUsername(db, username);
    const passwordMatches = await verifyPassword(admin?.passwordHash ?? (await unknownUserHash()), password);
    if (!admin || !passwordMatches) throw new UnauthenticatedError('Invalid credentials');
    await throttle.succeeded(username, ip);

    // A fresh token at every sign-in, so a token planted before it (session fixation) is worth nothing.
    const previous = sessionToken(req.get('cookie'));
    if (previous) await sessions.destroy(previous);
    const token = await sessions.create({
      kind: admin.role,
      subjectId: admin.id,
      username: admin.username,
      createdAt: new Date().toISOString(),
    });
    res.cookie(SESSION_COOKIE, token, cookieOptions);
    res.json({ success: true, username: admin.username });
  });

  router.post('/admin/logout', async (req, res) => {
    const token = sessionToken(req.get('cookie'));
    if (token) await sessions.destroy(token);
    res.clearCookie(SESSION_COOKIE, cookieOptions);
    res.json({ success: true });
  });

  router.get('/admin/status', (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const session = req.session;
    const role = session?.kind === 'admin' || session?.kind === 'auditor' ? session.kind : null;
    const status: AdminStatusView = {
      isAdmin: role === 'admin',
      role,
      username: role ? (session?.username ?? null) : null,
    };
    res.json(status);
  });

  /**
   * The signed-in customer, or null for everyone else: being signed out is an answer, not a failure, so every
   * storefront page asks without a failed request in the browser's console.
   */
  router.get('/auth/user', (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const session = req.session;
    if (session?.kind !== 'customer') {
      res.json(null);
      return;
    }
    res.json({
      id: session.subjectId,
      email: session.subjectId,
      profileImageUrl: null,
    } satisfies CurrentUserView);
  });

  return router;
}

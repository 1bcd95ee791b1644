import { ForbiddenError, UnauthenticatedError } from '@licensestore/domain';
import type { NewEventMetadata } from '@licensestore/domain/events';
import type { Request, RequestHandler } from 'express';
import { cookieValues } from '../http/cookies.js';
import { SESSION_COOKIE, type SessionStore } from './sessions.js';

export const sessionToken = (cookieHeader: string | undefined) =>
  cookieValues(cookieHeader, SESSION_COOKIE)[0];

/** Resolves the caller's session (renewing it) onto `req.session`. */
export function loadSession(sessions: SessionStore): RequestHandler {
  return async (req, _res, next) => {
    const token = sessionToken(req.get('cookie'));
    req.session = token ? await sessions.touch(token) : null;
    next();
  };
}

/** The signed-in admin's id; anonymous callers get 401, signed-in non-admins 403. */
export function signedInAdmin(req: Request): string {
  if (!req.session) throw new UnauthenticatedError('Authentication required');
  if (req.session.kind !== 'admin') throw new ForbiddenError('Admin access required');
  return req.session.subjectId;
}

/** Every admin route checks on the server; a hidden button in the UI is not a guard. */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  signedInAdmin(req);
  next();
};

/** The signed-in back-office user (admin or auditor) for read-only screens; others get 401 or 403. */
export function signedInBackOfficeUser(req: Request): { id: string; role: 'admin' | 'auditor' } {
  if (!req.session) throw new UnauthenticatedError('Authentication required');
  const { kind, subjectId } = req.session;
  if (kind !== 'admin' && kind !== 'auditor') throw new ForbiddenError('Back-office access required');
  return { id: subjectId, role: kind };
}

/** Read routes of the back office: admins and auditors. Writes stay behind `requireAdmin`. */
export const requireBackOffice: RequestHandler = (req, _res, next) => {
  signedInBackOfficeUser(req);
  next();
};

/** Metadata of a command the signed-in admin issues: who, and which request caused it. */
export const adminCommandMetadata = (req: Request): NewEventMetadata => ({
  actor: { type: 'admin', id: signedInAdmin(req) },
  correlationId: req.correlationId,
  causationId: req.requestId,
});

import { randomUUID } from 'node:crypto';
import {
  type SignInLinkSentView,
  signInLinkRequestSchema,
  signInTokenRequestSchema,
} from '@licensestore/contract/customer-auth';
import { customerEmailKey, ValidationError } from '@licensestore/domain';
import type { Logger } from '@licensestore/platform/logging';
import type { Mailer } from '@licensestore/platform/mail';
import { type CookieOptions, type Request, type Response, Router } from 'express';
import type { Redis } from 'ioredis';
import { sessionToken } from '../auth/guards.js';
import { SESSION_COOKIE, type SessionStore } from '../auth/sessions.js';
import { isOwnNavigation } from '../http/same-origin.js';
import { signInEmail } from './email.js';
import { SignInLinkThrottle } from './throttle.js';
import { SignInTokens } from './tokens.js';

/** The web client's pages of the sign-in flow; the api redirects browsers to them and never renders pages itself. */
const SIGN_IN_PAGES = {
  signIn: '/sign-in',
  signUp: '/sign-up',
  linkExpired: '/sign-in/link-expired',
  confirmSignIn: '/sign-in/confirm',
  confirmSignOut: '/sign-out',
  signedIn: '/account',
} as const;

export interface CustomerAuthRoutesDeps {
  redis: Redis;
  sessions: SessionStore;
  mailer: Mailer;
  logger: Logger;
  /** The site's public URL, without a trailing slash: sign-in links point there, whatever the request's Host. */
  publicUrl: string;
  /** Secure cookies when the site is served over https. */
  secureCookies: boolean;
}

/** A redirect that no cache keeps: each answer depends on a one-time token or the session. */
const redirectTo = (res: Response, location: string) => {
  res.set('Cache-Control', 'no-store').redirect(303, location);
};

/**
 * Customer sign-in by a one-time link e-mailed to the address. Browsers navigate to GET /api/login (and /api/logout,
 * /api/login/callback) and are redirected to the web client's pages, which call the JSON endpoints: POST
 * /api/login asks for a link, POST /api/login/callback signs in with its token, POST /api/logout signs out. The
 * session is the one admins get (ADR 006), of kind 'customer' with the normalised address as its subject. A GET
 * changes state only when the browser says the navigation is the visitor's own (typed, bookmarked, opened from a
 * mail program, or a link on this site); a link on another site is sent to a page whose button does it.
 */
export function customerAuthRoutes(deps: CustomerAuthRoutesDeps): Router {
  const { sessions, mailer, logger, publicUrl, secureCookies } = deps;
  const tokens = new SignInTokens(deps.redis);
  const throttle = new SignInLinkThrottle(deps.redis);
  // As the admin login sets it: no Max-Age, HttpOnly, SameSite=Lax, Secure behind https.
  const cookieOptions: CookieOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: secureCookies };
  const router = Router();

  router.get('/login', (req, res) => {
    redirectTo(res, req.query.intent === 'sign-up' ? SIGN_IN_PAGES.signUp : SIGN_IN_PAGES.signIn);
  });

  router.post('/login', async (req, res) => {
    const parsed = signInLinkRequestSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw new ValidationError('Enter an email address, like name@example.com.');
    // The same answer whether a link was sent, throttled, or the address never ordered: no address oracle.
    const accepted = () =>
      res.set('Cache-Control', 'no-store').json({ email: parsed.data.email } satisfies SignInLinkSentView);
    const email = customerEmailKey(parsed.data.email);
    const ip = req.ip ?? 'unknown';
    const verdict = await throttle.request(email, ip);
    if (!verdict.allowed) {
      logger.warn(
        { ip, limit: verdict.limit, requestId: req.requestId },
        'sign-in link refused: over the limit',
      );
      accepted();
      return;
    }
    const token = await tokens.issue(email);
    const link = `${publicUrl}/api/login/callback?token=${encodeURIComponent(token)}`;
    try {
      await mailer.send({
        to: email,
        ...signInEmail(link),
        messageId: mailer.messageIdFor('sign-in', randomUUID()),
      });
    } catch (error) {
      await tokens.consume(token);
      logger.error({ err: error, requestId: req.requestId }, 'sign-in link not sent');
      res
        .status(503)
        .json({ error: 'We could not send the email just now. Please try again in a few minutes.' });
      return;
    }
    accepted();
  });

  /** Consumes the token and starts a session; false when the token is used, expired, unknown or malformed. */
  const signInWith = async (req: Request, res: Response, token: string): Promise<boolean> => {
    const email = await tokens.consume(token);
    if (!email) return false;
    // A fresh session at every sign-in, so a token planted before it (session fixation) is worth nothing.
    const previous = sessionToken(req.get('cookie'));
    if (previous) await sessions.destroy(previous);
    const sid = await sessions.create({
      kind: 'customer',
      subjectId: email,
      createdAt: new Date().toISOString(),
    });
    res.cookie(SESSION_COOKIE, sid, cookieOptions);
    return true;
  };

  router.get('/login/callback', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    if (!token) return redirectTo(res, SIGN_IN_PAGES.linkExpired);
    // In the fragment, the token reaches the confirming page's script but no server log, nor any Referer.
    if (!isOwnNavigation(req))
      return redirectTo(res, `${SIGN_IN_PAGES.confirmSignIn}#token=${encodeURIComponent(token)}`);
    const signedIn = await signInWith(req, res, token);
    redirectTo(res, signedIn ? SIGN_IN_PAGES.signedIn : SIGN_IN_PAGES.linkExpired);
  });

  router.post('/login/callback', async (req, res) => {
    const parsed = signInTokenRequestSchema.safeParse(req.body ?? {});
    if (!parsed.success)
      throw new ValidationError('The sign-in link has no token: open the link from the email.');
    if (!(await signInWith(req, res, parsed.data.token))) {
      res
        .status(410)
        .json({ error: 'This sign-in link has expired or was already used. Ask for a new one.' });
      return;
    }
    res.set('Cache-Control', 'no-store').status(204).end();
  });

  const signOut = async (req: Request, res: Response) => {
    const token = sessionToken(req.get('cookie'));
    if (token) await sessions.destroy(token);
    res.clearCookie(SESSION_COOKIE, cookieOptions);
  };

  router.get('/logout', async (req, res) => {
    if (!isOwnNavigation(req)) return redirectTo(res, SIGN_IN_PAGES.confirmSignOut);
    await signOut(req, res);
    redirectTo(res, '/');
  });

  router.post('/logout', async (req, res) => {
    await signOut(req, res);
    res.set('Cache-Control', 'no-store').status(204).end();
  });

  return router;
}

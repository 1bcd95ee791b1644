// The customer's sign-in by e-mailed link, and who is signed in.
import { storableText } from '@licensestore/domain/text';
import { z } from 'zod';

/** POST /api/login: the address to e-mail a one-time sign-in link to. */
export const signInLinkRequestSchema = z.object({
  email: storableText({ min: 0, max: 254 }).pipe(z.email('must be an email address')),
});

/** POST /api/login answers the same for every valid address: the address as the store read it. */
export interface SignInLinkSentView {
  email: string;
}

/** POST /api/login/callback: the e-mailed link's token. Looked up (as its hash), never stored: any string is safe. */
export const signInTokenRequestSchema = z.object({ token: z.string().min(1).max(100) });

/** GET /api/auth/user: the signed-in customer (the api answers null when signed out). */
export interface CurrentUserView {
  id: string;
  email: string;
  profileImageUrl: string | null;
}

// The emulator's credentials, on their own so that an app can name them without loading the emulator
// (`@licensestore/paypal-sandbox/credentials`).

/** The sandbox placeholder credentials the emulator accepts unless told otherwise. */
export const DEFAULT_CLIENT_ID = 'sb-emulator-client';
export const DEFAULT_CLIENT_SECRET = 'sb-emulator-secret';
export const DEFAULT_WEBHOOK_ID = '0SANDBOXEMULATOR';
/**
 * `Authorization: Basic …` for these credentials: what the OAuth endpoint takes, and what the emulator's own control
 * routes (`/simulate/…`) take as well as a token.
 */
export const clientAuthorization = (clientId = DEFAULT_CLIENT_ID, clientSecret = DEFAULT_CLIENT_SECRET) =>
  `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
/** SDK client id whose card fields are not eligible (like an account without advanced card payments). */
export const NO_CARDS_CLIENT_ID = 'sb-no-cards';

import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** PayPal-style resource id: upper-case letters and digits (`^[A-Z0-9]+$`), 17 characters by default. */
export function resourceId(length = 17): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

/** PayPal account ids (`payer_id`, `merchant_id`): 13 of `[2-9A-HJ-NP-Z]`, no 0, 1, I or O to misread. */
const ACCOUNT_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const ACCOUNT_ID = /^[2-9A-HJ-NP-Z]{13}$/;

export function accountId(): string {
  let id = '';
  // 32 letters: a byte modulo 32 picks each one with the same chance.
  for (const byte of randomBytes(13)) id += ACCOUNT_ALPHABET[byte % ACCOUNT_ALPHABET.length];
  return id;
}

export const isAccountId = (id: string) => ACCOUNT_ID.test(id);

export const payerId = accountId;

/** The emulator's one merchant, as a PayPal account id. */
export const MERCHANT_ID = 'SBEMULATRMRCH';

/** Webhook event ids look like `WH-7Y7254563A4550640-11V2185806837105M`. */
export const webhookEventId = () => `WH-${resourceId(17)}-${resourceId(17)}`;

export const transmissionId = () => randomUUID();

export const accessToken = () => `A21AA${randomBytes(64).toString('base64url')}`;

/** PayPal timestamps have whole seconds: `2024-01-31T12:00:00Z`. */
export const timestamp = (date = new Date()) => `${date.toISOString().slice(0, 19)}Z`;

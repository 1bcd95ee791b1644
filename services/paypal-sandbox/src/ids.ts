import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** PayPal-style resource id: upper-case letters and digits (`^[A-Z0-9]+$`), 17 characters by default. */
export function resourceId(length = 17): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

export const payerId = () => resourceId(13);

/** Webhook event ids look like `WH-7Y7254563A4550640-11V2185806837105M`. */
export const webhookEventId = () => `WH-${resourceId(17)}-${resourceId(17)}`;

export const transmissionId = () => randomUUID();

export const accessToken = () => `A21AA${randomBytes(64).toString('base64url')}`;

/** PayPal timestamps have whole seconds: `2024-01-31T12:00:00Z`. */
export const timestamp = (date = new Date()) => `${date.toISOString().slice(0, 19)}Z`;

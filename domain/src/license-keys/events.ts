import { z } from 'zod';
import { parseEventData } from '../events/event-data.js';

/**
 * Events of a product's license-key inventory (`licenceKeys-<productId>`), v1. Keys are stored sealed
 * (AES-256-GCM, see key-vault) with an HMAC fingerprint for duplicate detection; they are never in clear in the log.
 */

/** `v1.<kid>.<iv>.<ciphertext>.<tag>`, base64url parts (key-vault). */
export const sealedKeySchema = z
  .string()
  .regex(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/, 'a sealed license key');
export const fingerprintSchema = z.string().regex(/^[0-9a-f]{64}$/, 'an HMAC-SHA256 fingerprint');

/** Who saw a license key in clear, and through which door (key custody). */
export const revealChannelSchema = z.enum(['confirmation-page', 'my-orders', 'email-link', 'admin-reveal']);
export type RevealChannel = z.infer<typeof revealChannelSchema>;
export const revealViewerSchema = z.object({
  /** `order-link`: a browser holding the order's access cookie (the one that paid, or that opened the e-mail). */
  type: z.enum(['customer', 'admin', 'order-link']),
  /** The customer's address or the admin's id; null for a browser known only by its access cookie. */
  id: z.string().min(1).nullable(),
});

export const assignedKeySchema = z.object({ keyId: z.uuid(), key: sealedKeySchema });
export type AssignedKey = z.infer<typeof assignedKeySchema>;

export const licenseKeyEventSchemas = {
  LicenceKeyAdded: z.object({
    productId: z.uuid(),
    keyId: z.uuid(),
    key: sealedKeySchema,
    fingerprint: fingerprintSchema,
    /**
     * HMAC of the key's last characters (key-vault `tailHash`): how the back office finds a key by what its mask
     * shows. Keys added before it was recorded have none.
     */
    tailHash: fingerprintSchema.optional(),
    addedAt: z.iso.datetime(),
  }),
  /** An available key taken out of the inventory by an admin (assigned keys are never removed). */
  LicenceKeyRemoved: z.object({ productId: z.uuid(), keyId: z.uuid(), removedAt: z.iso.datetime() }),
  /**
   * A paid order line asked for `quantity` keys: it joins the queue of lines waiting for this product's keys, or,
   * still in it, waits for that many more. A line asks again only for keys it neither holds nor waits for (a
   * reopened order whose keys were taken back).
   */
  LicenceKeysRequested: z.object({
    productId: z.uuid(),
    orderId: z.uuid(),
    lineId: z.string().min(1),
    quantity: z.number().int().positive(),
    requestedAt: z.iso.datetime(),
  }),
  /** Keys given to a waiting order line (oldest request first); the line may still wait for more. */
  LicenceKeysAssigned: z.object({
    productId: z.uuid(),
    orderId: z.uuid(),
    lineId: z.string().min(1),
    keys: z.array(assignedKeySchema).min(1),
    assignedAt: z.iso.datetime(),
  }),
  /**
   * A sold key taken back for good (its unit refunded or its order cancelled after the key left the store: in a
   * delivery e-mail the mail server accepted, or shown in clear). It is never handed out again.
   */
  LicenceKeyRevoked: z.object({
    productId: z.uuid(),
    keyId: z.uuid(),
    orderId: z.uuid(),
    lineId: z.string().min(1),
    revokedAt: z.iso.datetime(),
  }),
  /** A sold key that never left the store came back (its unit refunded or its order cancelled): available again. */
  LicenceKeyReturned: z.object({
    productId: z.uuid(),
    keyId: z.uuid(),
    orderId: z.uuid(),
    lineId: z.string().min(1),
    returnedAt: z.iso.datetime(),
  }),
  /** A waiting line wants fewer keys (units refunded) or none (order refunded, denied or cancelled). */
  LicenceKeysRequestWithdrawn: z.object({
    productId: z.uuid(),
    orderId: z.uuid(),
    lineId: z.string().min(1),
    quantity: z.number().int().positive(),
    withdrawnAt: z.iso.datetime(),
  }),
  /**
   * An admin opened a key no order holds (stock) in clear, from the back office's inventory: who, and a keyed
   * hash of their address. Keys an order holds are recorded on the order's custody stream instead
   * (`LicenceKeysRevealed`).
   */
  LicenceKeyRevealed: z.object({
    productId: z.uuid(),
    keyId: z.uuid(),
    viewer: revealViewerSchema,
    clientHash: z.string().regex(/^[0-9a-f]{64}$/, 'an HMAC-SHA256 of the client address'),
    revealedAt: z.iso.datetime(),
  }),
  /** Available keys fell below the threshold (once per fall; adding keys back above it re-arms it). */
  LicenceKeyStockLow: z.object({
    productId: z.uuid(),
    available: z.number().int().nonnegative(),
    threshold: z.number().int().positive(),
    detectedAt: z.iso.datetime(),
  }),
};

export type LicenseKeyEvent = {
  [K in keyof typeof licenseKeyEventSchemas]: { type: K; data: z.infer<(typeof licenseKeyEventSchemas)[K]> };
}[keyof typeof licenseKeyEventSchemas];

/** The category of stored streams, in the spelling they were first written with (as the event types keep theirs). */
export const LICENSE_KEYS_CATEGORY = 'licenceKeys';
export const licenseKeysStream = (productId: string) => `${LICENSE_KEYS_CATEGORY}-${productId}`;

/** Validates a stored event's data at the adapter boundary; unknown types are not ours. */
export function parseLicenseKeyEvent(type: string, data: unknown): LicenseKeyEvent | null {
  if (!(type in licenseKeyEventSchemas)) return null;
  const schema = licenseKeyEventSchemas[type as LicenseKeyEvent['type']];
  return { type, data: parseEventData(schema, data) } as LicenseKeyEvent;
}

// The license-key inventory of the back office: its requests, its lists and a key opened in clear.
import { z } from 'zod';

/** What a key is to the inventory: stock, held by an order, or taken back from one for good. */
export const KEY_STATUSES = ['available', 'assigned', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** GET /api/admin/license-keys: the list's filters, beside the paging parameters. */
export const keyListFiltersSchema = z.object({
  product: z.uuid({ error: 'must be a product id' }).optional(),
  status: z.enum(KEY_STATUSES, { error: `must be one of ${KEY_STATUSES.join(', ')}` }).optional(),
  /** The key's last characters (those its mask shows), or the whole key. */
  q: z.string().max(200, { error: 'must be at most 200 characters' }).optional(),
});
export type KeyListFilters = z.infer<typeof keyListFiltersSchema>;

/** POST /api/license-keys: one key for one product (both required, checked with the product's format). */
export const addLicenseKeyRequestSchema = z.object({
  productId: z.string().optional(),
  key: z.string().optional(),
});
export type AddLicenseKeyRequest = z.input<typeof addLicenseKeyRequestSchema>;

/** POST /api/license-keys/import as JSON: the keys one per line, for one product. */
export const importLicenseKeysRequestSchema = z.object({
  productId: z.string().optional(),
  keys: z.string().optional(),
});
export type ImportLicenseKeysRequest = z.input<typeof importLicenseKeysRequestSchema>;

/** A key in the back office's list: masked for every reader (an admin opens one through its recorded reveal). */
export interface KeyListItem {
  id: string;
  productId: string;
  /** Null once the product has been deleted. */
  productName: string | null;
  /** The key's last characters; null when the stored key does not open (logged). */
  key: string | null;
  status: KeyStatus;
  orderId: string | null;
  createdAt: string;
}

/**
 * A key as POST /api/license-keys answers it (and the unpaged GET /api/license-keys lists keys): an available key in
 * clear to admins (stock, nobody's yet); a key assigned to an order masked for everyone, as it opens only through the
 * order's recorded reveal; auditors see every key masked.
 */
export interface LicenseKeyView {
  id: string;
  productId: string;
  /** Null once the product has been deleted. */
  productName: string | null;
  /** Null when the stored key does not open (logged). */
  key: string | null;
  assigned: boolean;
  orderId: string | null;
  createdAt: string;
}

/** Keys of one product (GET /api/license-keys/stock): `waiting` counts units of paid orders still owed a key. */
export interface StockView {
  productId: string;
  productName: string;
  available: number;
  assigned: number;
  waiting: number;
  /** Fewer keys available than LOW_STOCK_THRESHOLD (never when it is 0). */
  lowStock: boolean;
}

/** A product whose In Stock flag says the opposite of its inventory (GET /api/admin/stock-mismatches). */
export interface StockMismatch {
  productId: string;
  productName: string;
  /** What the store shows: In Stock (true) or Out of Stock. */
  inStock: boolean;
  available: number;
}

/** A line of an import the server did not store: its number in the text sent, the key masked, and why. */
const refusedLineSchema = z.object({
  /** 1-based line number in the text as sent. */
  line: z.number().int(),
  /** Masked: its last characters only. */
  key: z.string(),
  reason: z.string(),
});
export type RefusedLine = z.infer<typeof refusedLineSchema>;

/**
 * An import that went through (200): how many keys were added, the lines skipped (already in stock, or repeating an
 * earlier line) with their reasons, and the sentence that says it all.
 */
export const importedKeysSchema = z.object({
  added: z.number().int(),
  alreadyInStock: z.number().int(),
  skipped: z.array(refusedLineSchema),
  summary: z.string(),
});
export type ImportedKeysView = z.infer<typeof importedKeysSchema>;

/** An import refused whole (400) because some lines are not keys of the product: nothing was stored. */
export const refusedImportSchema = z.object({
  error: z.string(),
  added: z.literal(0),
  refused: z.array(refusedLineSchema),
});
export type RefusedImportView = z.infer<typeof refusedImportSchema>;

/** POST /api/license-keys/:keyId/reveal: one key in clear, recorded on its history before it was answered. */
export const keyRevealSchema = z.object({ keyId: z.string(), licenseKey: z.string() });
export type KeyRevealView = z.infer<typeof keyRevealSchema>;

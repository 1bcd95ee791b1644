import { type LicenseKeyEvent, licenseKeysStream, orderStream } from '@licensestore/domain';
import type { Database, LicenseKeysTable } from '@licensestore/platform/db';
import {
  inventoryEventTime,
  keyIdsOf,
  keyStatusAfter,
  parseLicenseKeyBatch,
  projectorDescriptors,
  storableText,
} from '@licensestore/platform/readmodel';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Projector, RowSource } from '../projector.js';
import { isoText, tableIn, upsertRows } from '../sql.js';

const NAME = projectorDescriptors.licenseKeys.name;

/** A `license_keys` row as the projector writes it (timestamps as ISO text). */
export type LicenseKeyRow = Omit<LicenseKeysTable, 'added_at' | 'assigned_at'> & {
  added_at: string;
  assigned_at: string | null;
};

/** How a product's stock counters move over a batch, and the latest event that moved them. */
export interface StockChange {
  available: number;
  assigned: number;
  revoked: number;
  waiting: number;
  updatedAt: string;
}

/**
 * Folds a batch in log order onto the stored keys it names (`keys`, changed in place: a removed key is deleted),
 * with the rules of `evolveInventory`, and returns the keys it touched and how each product's stock moves.
 * Available and assigned move by what the touched keys count for now less what they counted for, so they always
 * equal the counts over the keys. Waiting moves by the events: a request adds its quantity, an assignment takes
 * away the keys it gave (the inventory asks once per line and never gives a line more than it still waits for).
 */
export function foldLicenseKeyEvents(
  events: Iterable<LicenseKeyEvent>,
  keys: Map<string, LicenseKeyRow>,
): { touched: Set<string>; stock: Map<string, StockChange> } {
  const stock = new Map<string, StockChange>();
  const counted = new Map<string, Pick<LicenseKeyRow, 'product_id' | 'status'> | undefined>();
  const changeOf = (productId: string, at: string) => {
    const change = stock.get(productId);
    if (!change) {
      const created = { available: 0, assigned: 0, revoked: 0, waiting: 0, updatedAt: at };
      stock.set(productId, created);
      return created;
    }
    if (Date.parse(at) > Date.parse(change.updatedAt)) change.updatedAt = at;
    return change;
  };
  for (const event of events) {
    // A showing moves no key and no counter.
    if (event.type === 'LicenceKeyRevealed') continue;
    const at = inventoryEventTime(event);
    const change = changeOf(event.data.productId, at);
    if (event.type === 'LicenceKeysRequested') change.waiting += event.data.quantity;
    else if (event.type === 'LicenceKeysAssigned') change.waiting -= event.data.keys.length;
    else if (event.type === 'LicenceKeysRequestWithdrawn') change.waiting -= event.data.quantity;
    for (const keyId of keyIdsOf(event)) {
      const row = keys.get(keyId);
      const status = keyStatusAfter(row?.status, event);
      if (!counted.has(keyId)) {
        counted.set(keyId, row && { product_id: row.product_id, status: row.status });
        // Key ids are keyed across products: one added again under another product leaves the first one's stock.
        if (row) changeOf(row.product_id, at);
      }
      if (status === undefined) keys.delete(keyId);
      else if (event.type === 'LicenceKeyAdded') {
        const { productId, key, fingerprint, tailHash, addedAt } = event.data;
        keys.set(keyId, {
          id: keyId,
          product_id: productId,
          key_sealed: key,
          fingerprint,
          tail_hash: tailHash ?? null,
          status,
          order_id: null,
          line_id: null,
          added_at: addedAt,
          assigned_at: null,
          returned_from: null,
        });
      } else if (row && event.type === 'LicenceKeysAssigned') {
        keys.set(keyId, {
          ...row,
          status,
          order_id: event.data.orderId,
          line_id: storableText(event.data.lineId),
          assigned_at: event.data.assignedAt,
        });
      } else if (row && event.type === 'LicenceKeyRevoked') {
        keys.set(keyId, { ...row, status });
      } else if (row && event.type === 'LicenceKeyReturned') {
        keys.set(keyId, {
          ...row,
          status,
          order_id: null,
          line_id: null,
          assigned_at: null,
          returned_from: event.data.orderId,
        });
      }
    }
  }
  for (const [keyId, before] of counted) {
    const after = keys.get(keyId);
    if (before) (stock.get(before.product_id) as StockChange)[before.status] -= 1;
    if (after) (stock.get(after.product_id) as StockChange)[after.status] += 1;
  }
  return { touched: new Set(counted.keys()), stock };
}

async function loadKeys(
  trx: Transaction<Database>,
  schema: string,
  events: readonly LicenseKeyEvent[],
): Promise<Map<string, LicenseKeyRow>> {
  const ids = [...new Set(events.flatMap(keyIdsOf))];
  if (ids.length === 0) return new Map();
  const { rows } = await sql<LicenseKeyRow>`
    SELECT id, product_id, key_sealed, fingerprint, tail_hash, status, order_id, line_id,
           ${isoText('added_at')} AS added_at, ${isoText('assigned_at')} AS assigned_at, returned_from
      FROM ${tableIn(schema, 'license_keys')} WHERE id = ANY(${ids}::uuid[])`.execute(trx);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The inventory events behind a key, and the order it went to; the product as the live row has it. */
export async function keyStreams(db: Kysely<Database>, keyId: string): Promise<RowSource[]> {
  const row = await db
    .selectFrom('license_keys')
    .select(['product_id', 'order_id'])
    .where('id', '=', keyId)
    .executeTakeFirst();
  return row ? keySources(row.product_id, keyId, row.order_id) : [];
}

const keySources = (productId: string, keyId: string, orderId: unknown): RowSource[] => [
  { stream: licenseKeysStream(productId), mentioning: keyId },
  ...(orderId ? [{ stream: orderStream(String(orderId)), mentioning: keyId }] : []),
];

/** Adds each product's changes to its counters (a product seen for the first time starts from zero). */
async function moveStock(trx: Transaction<Database>, schema: string, stock: Map<string, StockChange>) {
  if (stock.size === 0) return;
  const rows = [...stock].map(([productId, change]) => ({
    product_id: productId,
    available: change.available,
    assigned: change.assigned,
    revoked: change.revoked,
    waiting: change.waiting,
    updated_at: change.updatedAt,
  }));
  const table = tableIn(schema, 'license_key_stock');
  await sql`
    INSERT INTO ${table} AS stock
    SELECT * FROM json_populate_recordset(NULL::${table}, ${JSON.stringify(rows)}::json)
    ON CONFLICT (product_id) DO UPDATE SET
      available = stock.available + excluded.available,
      assigned = stock.assigned + excluded.assigned,
      revoked = stock.revoked + excluded.revoked,
      waiting = stock.waiting + excluded.waiting,
      updated_at = greatest(stock.updated_at, excluded.updated_at)`.execute(trx);
}

/**
 * The license-key inventory from the products' key streams: one row per key in the inventory (sealed, with its
 * fingerprint for duplicate checks, the order line it went to, revoked or the order it came back from), and per
 * product the keys available, assigned, revoked and the units paid orders still wait for, kept up to date event by event rather than counted.
 */
export const licenseKeysProjector: Projector = {
  ...projectorDescriptors.licenseKeys,
  tables: ['license_keys', 'license_key_stock'],
  sources: {
    license_keys: (row) => keySources(String(row.product_id), String(row.id), row.order_id),
    license_key_stock: (row) => [{ stream: licenseKeysStream(String(row.product_id)) }],
  },

  async createTables(db: Kysely<Database>, schema: string) {
    // The fingerprint is not UNIQUE: the inventory refuses duplicates per product stream only, and a read model
    // must take every recorded key (a constraint would stop the projector on one).
    await sql`
      CREATE TABLE ${tableIn(schema, 'license_keys')} (
        id          uuid PRIMARY KEY,
        product_id  uuid NOT NULL,
        key_sealed  text NOT NULL,
        fingerprint text NOT NULL,
        status      text NOT NULL,
        order_id    uuid,
        line_id     text,
        added_at      timestamptz NOT NULL,
        assigned_at   timestamptz,
        returned_from uuid,
        tail_hash     text
      )`.execute(db);
    await sql`
      CREATE TABLE ${tableIn(schema, 'license_key_stock')} (
        product_id uuid PRIMARY KEY,
        available  integer NOT NULL,
        assigned   integer NOT NULL,
        waiting    integer NOT NULL,
        updated_at timestamptz NOT NULL,
        revoked    integer NOT NULL
      )`.execute(db);
  },

  readerIndexes: (schema) => {
    const keys = tableIn(schema, 'license_keys');
    return [
      sql`CREATE INDEX license_keys_fingerprint_idx ON ${keys} (fingerprint)`,
      // The back office's paged list, newest first: one index per filter combination, each ending in (added_at, id).
      sql`CREATE INDEX license_keys_added_idx ON ${keys} (added_at, id)`,
      sql`CREATE INDEX license_keys_product_added_idx ON ${keys} (product_id, added_at, id)`,
      sql`CREATE INDEX license_keys_status_added_idx ON ${keys} (status, added_at, id)`,
      sql`CREATE INDEX license_keys_product_status_added_idx ON ${keys} (product_id, status, added_at, id)`,
      sql`CREATE INDEX license_keys_tail_added_idx ON ${keys} (tail_hash, added_at, id)`,
    ];
  },

  async apply(trx, events, { schema, log }) {
    const parsed = parseLicenseKeyBatch(events, log, NAME);
    if (parsed.length === 0) return;
    const keys = await loadKeys(trx, schema, parsed);
    const { touched, stock } = foldLicenseKeyEvents(parsed, keys);
    const gone = [...touched].filter((id) => !keys.has(id));
    if (gone.length > 0) {
      await sql`DELETE FROM ${tableIn(schema, 'license_keys')} WHERE id = ANY(${gone}::uuid[])`.execute(trx);
    }
    await upsertRows(
      trx,
      schema,
      'license_keys',
      'id',
      [...touched].flatMap((id) => keys.get(id) ?? []),
    );
    await moveStock(trx, schema, stock);
  },
};

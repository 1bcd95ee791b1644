import {
  LICENSE_KEYS_CATEGORY,
  ORDER_EVENT_CATEGORIES,
  parseLicenseKeyEvent,
  parseOrderEvent,
} from '@licensestore/domain';
import { type RecordedEvent, streamCategory } from '@licensestore/domain/events';
import type { Database, KeyHistoryTable } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { projectorDescriptors } from '@licensestore/platform/readmodel';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Projector } from '../projector.js';
import { tableIn, writeFacts } from '../sql.js';

const NAME = projectorDescriptors.keyHistory.name;

/** A `key_history` row as the projector writes it: its time as the event's ISO text, its details before JSON. */
export type KeyHistoryRow = Omit<KeyHistoryTable, 'at' | 'details'> & {
  at: string;
  details: Record<string, unknown>;
};

/** What one event did to one key: the row less what every row takes from the event itself. */
type Step = Pick<KeyHistoryRow, 'key_id' | 'kind' | 'order_id' | 'at' | 'details'>;

/** A delivery e-mail: it carries every key assigned to its order so far, known only once the batch is read. */
interface Delivery {
  orderId: string;
  at: string;
  details: { messageId: string; recipient: string };
}

/** What one event does to key histories: its steps, or a delivery whose keys are looked up for the whole batch. */
type Effect = Step[] | Delivery;

/** The columns of a `key_history` row but its details, in the order `apply` writes their values. */
const KEY_HISTORY_ROW_COLUMNS = [
  'key_id',
  'position',
  'stream',
  'event_type',
  'kind',
  'order_id',
  'at',
  'actor_type',
  'actor_id',
  'correlation_id',
] as const;

const lower = (id: string) => id.toLowerCase();

/**
 * What an event does to key histories, by event type. An inventory event type not listed here that names
 * its keys (`keyId`, or `keys[].keyId`) still gets a step of its own, its kind being its type: keys revoked or
 * returned to stock by later events plug in without a change here.
 */
function effectOf(event: RecordedEvent): Effect {
  const category = streamCategory(event.streamId);
  if (category === LICENSE_KEYS_CATEGORY) {
    const inventory = parseLicenseKeyEvent(event.type, event.data);
    if (inventory?.type === 'LicenceKeyAdded') {
      const { keyId, productId, addedAt } = inventory.data;
      // Every key one request adds shares that request's correlation id: it names the import batch.
      const details = { productId: lower(productId), batch: event.metadata.correlationId };
      return [{ key_id: lower(keyId), kind: 'imported', order_id: null, at: addedAt, details }];
    }
    if (inventory?.type === 'LicenceKeyRemoved') {
      const { keyId, removedAt } = inventory.data;
      return [{ key_id: lower(keyId), kind: 'removed', order_id: null, at: removedAt, details: {} }];
    }
    if (inventory?.type === 'LicenceKeyRevealed') {
      const { keyId, viewer, clientHash, revealedAt } = inventory.data;
      // A stock key opens only in the back office, by an admin: the same door as an order's key opened there.
      const details = { channel: 'admin-reveal', viewer, clientHash };
      return [{ key_id: lower(keyId), kind: 'revealed', order_id: null, at: revealedAt, details }];
    }
    // Assignment is taken from the order's own stream (below), which also orders it before the delivery.
    if (inventory) return [];
    return namedKeys(event);
  }
  if (!ORDER_EVENT_CATEGORIES.has(category)) return [];
  const order = parseOrderEvent(event.type, event.data);
  switch (order?.type) {
    case 'OrderLicenceKeysAssigned': {
      const { orderId, lineId, keys, assignedAt } = order.data;
      return keys.map(({ keyId }) => ({
        key_id: lower(keyId),
        kind: 'assigned',
        order_id: lower(orderId),
        at: assignedAt,
        details: { lineId },
      }));
    }
    case 'DeliveryEmailSent': {
      const { orderId, messageId, recipient, sentAt } = order.data;
      return { orderId: lower(orderId), at: sentAt, details: { messageId, recipient } };
    }
    case 'LicenceKeysRevealed': {
      const { orderId, keyIds, channel, viewer, clientHash, revealedAt } = order.data;
      return keyIds.map((keyId) => ({
        key_id: lower(keyId),
        kind: 'revealed',
        order_id: lower(orderId),
        at: revealedAt,
        details: { channel, viewer, clientHash },
      }));
    }
    default:
      return [];
  }
}

/** An inventory event of a type this projector does not know, by the keys its data names. */
function namedKeys(event: RecordedEvent): Step[] {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const ids = new Set<string>();
  if (typeof data.keyId === 'string') ids.add(lower(data.keyId));
  if (Array.isArray(data.keyIds))
    for (const id of data.keyIds) if (typeof id === 'string') ids.add(lower(id));
  if (Array.isArray(data.keys)) {
    for (const key of data.keys) {
      const id = (key as { keyId?: unknown } | null)?.keyId;
      if (typeof id === 'string') ids.add(lower(id));
    }
  }
  const at = Object.entries(data).find(([name, value]) => name.endsWith('At') && typeof value === 'string');
  const orderId = typeof data.orderId === 'string' ? lower(data.orderId) : null;
  const details = Object.fromEntries(
    Object.entries(data).filter(
      ([name]) => !['key', 'keys', 'keyId', 'keyIds', 'fingerprint'].includes(name),
    ),
  );
  return [...ids].map((keyId) => ({
    key_id: keyId,
    kind: event.type,
    order_id: orderId,
    at: (at?.[1] as string | undefined) ?? event.createdAt.toISOString(),
    details,
  }));
}

/** The batch's events and what each does, those this projector cannot read logged and left out. */
function effectsOf(events: readonly RecordedEvent[], log: Logger) {
  const read: Array<{ event: RecordedEvent; effect: Effect }> = [];
  for (const event of events) {
    try {
      read.push({ event, effect: effectOf(event) });
    } catch (error) {
      // A recorded event is a fact: one this projector cannot read is logged and left out, never a stop.
      log.warn({ err: error, projector: NAME, eventId: event.id, type: event.type }, 'event skipped');
    }
  }
  return read;
}

/** The keys stored as assigned to each of `orderIds`, in one query for the whole batch. */
async function storedAssignments(
  trx: Transaction<Database>,
  schema: string,
  orderIds: ReadonlySet<string>,
): Promise<Map<string, Set<string>>> {
  const assigned = new Map<string, Set<string>>();
  if (orderIds.size === 0) return assigned;
  const { rows } = await sql<{ order_id: string; key_id: string }>`
    SELECT order_id::text, key_id::text FROM ${tableIn(schema, 'key_history')}
     WHERE order_id = ANY(${[...orderIds]}::uuid[]) AND kind = 'assigned'`.execute(trx);
  for (const row of rows) keysOf(assigned, row.order_id).add(row.key_id);
  return assigned;
}

const keysOf = (assigned: Map<string, Set<string>>, orderId: string) => {
  let keys = assigned.get(orderId);
  if (!keys) {
    keys = new Set();
    assigned.set(orderId, keys);
  }
  return keys;
};

const isDelivery = (effect: Effect): effect is Delivery => !Array.isArray(effect);

/**
 * The batch's rows in log order. A delivery delivers the keys its order was assigned before it: those stored by
 * earlier batches, then those assigned earlier in this batch.
 */
async function stepsOfBatch(
  trx: Transaction<Database>,
  schema: string,
  events: readonly RecordedEvent[],
  log: Logger,
): Promise<KeyHistoryRow[]> {
  const read = effectsOf(events, log);
  const delivered = new Set(read.flatMap(({ effect }) => (isDelivery(effect) ? [effect.orderId] : [])));
  const assigned = await storedAssignments(trx, schema, delivered);
  const rows: KeyHistoryRow[] = [];
  for (const { event, effect } of read) {
    const steps = isDelivery(effect)
      ? [...(assigned.get(effect.orderId) ?? [])].map((keyId) => ({
          key_id: keyId,
          kind: 'delivered',
          order_id: effect.orderId,
          at: effect.at,
          details: effect.details,
        }))
      : effect;
    for (const step of steps) {
      if (step.kind === 'assigned' && step.order_id && delivered.has(step.order_id)) {
        keysOf(assigned, step.order_id).add(step.key_id);
      }
      rows.push({
        ...step,
        position: event.position,
        stream: event.streamId,
        event_type: event.type,
        actor_type: event.metadata.actor.type,
        actor_id: event.metadata.actor.id,
        correlation_id: event.metadata.correlationId,
      });
    }
  }
  return rows;
}

/**
 * Each license key's custody, step by step: imported (by whom, in which batch), assigned to an order line,
 * delivered in an e-mail the mail server accepted (its message id), revealed in clear (each time: door, viewer,
 * address hash; a stock key from the inventory, an order's key on its order), removed, and what later inventory events do to it. A key's page is one indexed range read,
 * whatever the size of its product's inventory stream.
 */
export const keyHistoryProjector: Projector = {
  ...projectorDescriptors.keyHistory,
  tables: ['key_history'],
  sources: { key_history: (row) => [{ stream: String(row.stream), mentioning: String(row.key_id) }] },

  async createTables(db: Kysely<Database>, schema: string) {
    const table = tableIn(schema, 'key_history');
    await sql`
      CREATE TABLE ${table} (
        key_id         uuid NOT NULL,
        position       text NOT NULL,
        stream         text NOT NULL,
        event_type     text NOT NULL,
        kind           text NOT NULL,
        order_id       uuid,
        at             timestamptz NOT NULL,
        actor_type     text NOT NULL,
        actor_id       text NOT NULL,
        correlation_id text NOT NULL,
        details        jsonb NOT NULL,
        PRIMARY KEY (key_id, position)
      )`.execute(db);
    await sql`CREATE INDEX key_history_order_idx ON ${table} (order_id, kind) WHERE order_id IS NOT NULL`.execute(
      db,
    );
  },

  readerIndexes: (schema) => [
    sql`CREATE INDEX key_history_batch_idx ON ${tableIn(schema, 'key_history')} (correlation_id) WHERE kind = 'imported'`,
  ],

  async apply(trx, events, context) {
    const rows = await stepsOfBatch(trx, context.schema, events, context.log);
    await writeFacts(trx, context, {
      table: 'key_history',
      key: ['key_id', 'position'],
      columns: [...KEY_HISTORY_ROW_COLUMNS, 'details'],
      json: 'details',
      rows: rows.map((row) => [
        ...KEY_HISTORY_ROW_COLUMNS.map((column) => row[column]),
        JSON.stringify(row.details),
      ]),
    });
  },
};

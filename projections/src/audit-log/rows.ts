import { LICENSE_KEYS_CATEGORY, sealedKeySchema } from '@licensestore/domain';
import { WITHHELD_KEY } from '@licensestore/domain/audit';
import { type RecordedEvent, streamCategory } from '@licensestore/domain/events';
import { storableText } from '@licensestore/platform/readmodel';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOr = (value: unknown) =>
  typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : null;

/** The id after the category (`order-<id>`), when the stream is of that category and the id is a uuid. */
const streamIdOf = (streamId: string, category: string) =>
  streamCategory(streamId) === category ? uuidOr(streamId.slice(category.length + 1)) : null;

type EventData = { orderId?: unknown; productId?: unknown; lines?: Array<{ productId?: unknown }> } | null;

/** The order an event concerns: its stream's, or the one its data names (a checkout's capture, a key request). */
export function orderOf(event: RecordedEvent): string | null {
  return streamIdOf(event.streamId, 'order') ?? uuidOr((event.data as EventData)?.orderId);
}

/** The products an event concerns: its stream's, the one its data names, and those of its lines (a capture). */
export function productsOf(event: RecordedEvent): string[] {
  const data = event.data as EventData;
  const lines = Array.isArray(data?.lines) ? data.lines.map((line) => uuidOr(line?.productId)) : [];
  const ids = [
    streamIdOf(event.streamId, 'product'),
    streamIdOf(event.streamId, LICENSE_KEYS_CATEGORY),
    uuidOr(data?.productId),
    ...lines,
  ];
  return [...new Set(ids.filter((id): id is string => id !== null))];
}

/**
 * Every sealed key starts with the vault's format version (`v1.<kid>.…`, shared key-vault); a string that does
 * not is told apart without the full check, which matters because a zod parse that fails costs microseconds
 * and a replay meets millions of strings. `rows.unit.spec.ts` seals a key with the vault to keep this honest.
 */
const SEALED_PREFIX = 'v1.';
const isSealedKey = (value: string) =>
  value.startsWith(SEALED_PREFIX) && sealedKeySchema.safeParse(value).success;
const withholdKeys = (_name: string, value: unknown) =>
  typeof value === 'string' && isSealedKey(value) ? WITHHELD_KEY : value;

/**
 * Event data as JSON with every sealed key withheld entirely, as `maskKeys(data, () => WITHHELD_KEY)` has it,
 * without copying the data. The projections role does not hold the key secret (keys are opened only at the HTTP
 * edge), so it cannot show a key's last characters; the per-order history, read through the API, does. A sealed key
 * in JSON text starts `"v1.`: data without that needs no second pass.
 */
export function withheldDataJson(data: unknown): string {
  const json = JSON.stringify(data);
  return json.includes(`"${SEALED_PREFIX}`) ? JSON.stringify(data, withholdKeys) : json;
}

/** The columns of a log row, in the order `auditLogRow` gives its values. */
export const AUDIT_LOG_COLUMNS = [
  'position',
  'event_id',
  'stream',
  'revision',
  'type',
  'recorded_at',
  'actor_type',
  'actor_id',
  'correlation_id',
  'causation_id',
  'order_id',
  'data',
] as const;

/**
 * A log row's values, its data as JSON (`withheldDataJson`). Text goes through `storableText`: the row must be
 * writable whatever the event store accepted.
 */
export function auditLogRow(event: RecordedEvent): Array<string | null> {
  const { actor, correlationId, causationId } = event.metadata;
  return [
    event.position,
    event.id,
    storableText(event.streamId),
    event.revision.toString(),
    storableText(event.type),
    event.createdAt.toISOString(),
    storableText(actor.type),
    storableText(actor.id),
    storableText(correlationId),
    storableText(causationId),
    orderOf(event),
    withheldDataJson(event.data),
  ];
}

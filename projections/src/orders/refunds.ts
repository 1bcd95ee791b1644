import { type OrderEvent, orderEventSchemas } from '@licensestore/domain';
import { type RecordedEvent, streamCategory } from '@licensestore/domain/events';
import type { Database, OrderRefundsTable } from '@licensestore/platform/db';
import { storableText } from '@licensestore/platform/readmodel';
import { type Kysely, sql, type Transaction } from 'kysely';
import { isoText, tableIn, upsertRows } from '../sql.js';

type Timestamps = 'requested_at' | 'completed_at' | 'failed_at';

/** An `order_refunds` row as the projector writes it (timestamps as ISO text). */
export type OrderRefundRow = Omit<OrderRefundsTable, Timestamps> & {
  requested_at: string;
  completed_at: string | null;
  failed_at: string | null;
};

const REFUND_EVENTS = new Set<string>(['OrderRefundRequested', 'OrderRefundCompleted', 'OrderRefundFailed']);

type RefundEvent = Extract<
  OrderEvent,
  { type: 'OrderRefundRequested' | 'OrderRefundCompleted' | 'OrderRefundFailed' }
>;

export async function createRefundsTable(db: Kysely<Database>, schema: string) {
  await sql`
    CREATE TABLE ${tableIn(schema, 'order_refunds')} (
      id               text PRIMARY KEY,
      order_id         uuid NOT NULL,
      refund_id        uuid,
      paypal_refund_id text,
      amount           numeric(12, 2) NOT NULL,
      units            jsonb NOT NULL,
      reason           text,
      status           text NOT NULL,
      requested_by     text,
      requested_at     timestamptz NOT NULL,
      completed_at     timestamptz,
      failed_at        timestamptz,
      failure_code     text,
      failure_message  text
    )`.execute(db);
}

/** An order's refunds, as its page lists them. */
export const refundsReaderIndexes = (schema: string) => [
  sql`CREATE INDEX order_refunds_order_id_idx ON ${tableIn(schema, 'order_refunds')} (order_id, requested_at)`,
];

/** The refund events of a batch with who recorded them (the metadata's actor), in log order. */
function refundEventsOf(events: readonly RecordedEvent[]): Array<{ event: RefundEvent; actor: string }> {
  const found: Array<{ event: RefundEvent; actor: string }> = [];
  for (const recorded of events) {
    if (streamCategory(recorded.streamId) !== 'order' || !REFUND_EVENTS.has(recorded.type)) continue;
    const type = recorded.type as RefundEvent['type'];
    // The orders projector logs an event that does not parse; here it is only skipped.
    const parsed = orderEventSchemas[type].safeParse(recorded.data);
    if (!parsed.success) continue;
    found.push({
      event: { type, data: parsed.data } as RefundEvent,
      actor: recorded.metadata?.actor?.id ?? 'unknown',
    });
  }
  return found;
}

/** Folds refund events onto the stored refunds they name: requested, then completed or failed. */
export function foldRefunds(
  events: ReadonlyArray<{ event: RefundEvent; actor: string }>,
  stored: ReadonlyMap<string, OrderRefundRow>,
): Map<string, OrderRefundRow> {
  const rows = new Map<string, OrderRefundRow>();
  const rowOf = (id: string) => {
    const row = rows.get(id) ?? stored.get(id);
    return row && { ...row };
  };
  for (const { event, actor } of events) {
    const orderId = event.data.orderId.toLowerCase();
    if (event.type === 'OrderRefundRequested') {
      const { refundId, units, amount, reason, requestedAt } = event.data;
      rows.set(refundId, {
        id: refundId,
        order_id: orderId,
        refund_id: refundId,
        paypal_refund_id: null,
        amount,
        units: units.map((unit) => ({ lineId: storableText(unit.lineId), keyId: unit.keyId })),
        reason: storableText(reason),
        status: 'requested',
        requested_by: storableText(actor),
        requested_at: requestedAt,
        completed_at: null,
        failed_at: null,
        failure_code: null,
        failure_message: null,
      });
    } else if (event.type === 'OrderRefundCompleted') {
      const { refundId, paypalRefundId, units, amount, completedAt } = event.data;
      const paypalId = storableText(paypalRefundId);
      const requested = refundId === null ? undefined : rowOf(refundId);
      const row: OrderRefundRow = requested ?? {
        id: paypalId,
        order_id: orderId,
        refund_id: null,
        paypal_refund_id: null,
        amount,
        units: [],
        reason: null,
        status: 'requested',
        requested_by: null,
        requested_at: completedAt,
        completed_at: null,
        failed_at: null,
        failure_code: null,
        failure_message: null,
      };
      rows.set(row.id, {
        ...row,
        paypal_refund_id: paypalId,
        amount,
        units: units.map((unit) => ({ lineId: storableText(unit.lineId), keyId: unit.keyId })),
        status: 'completed',
        completed_at: completedAt,
      });
    } else {
      const row = rowOf(event.data.refundId);
      if (!row) continue;
      rows.set(row.id, {
        ...row,
        status: 'failed',
        failed_at: event.data.failedAt,
        failure_code: storableText(event.data.code),
        failure_message: storableText(event.data.message),
      });
    }
  }
  return rows;
}

/** Writes the refunds of a batch (the orders projector's third table). */
export async function applyRefunds(
  trx: Transaction<Database>,
  schema: string,
  events: readonly RecordedEvent[],
): Promise<void> {
  const refunds = refundEventsOf(events);
  if (refunds.length === 0) return;
  const ids = [
    ...new Set(
      refunds.flatMap(({ event }) =>
        event.type === 'OrderRefundCompleted'
          ? [event.data.refundId ?? storableText(event.data.paypalRefundId)]
          : [event.data.refundId],
      ),
    ),
  ];
  const { rows } = await sql<OrderRefundRow>`
    SELECT id, order_id, refund_id, paypal_refund_id, amount::text AS amount, units, reason, status, requested_by,
           ${isoText('requested_at')} AS requested_at, ${isoText('completed_at')} AS completed_at,
           ${isoText('failed_at')} AS failed_at, failure_code, failure_message
      FROM ${tableIn(schema, 'order_refunds')} WHERE id = ANY(${ids}::text[])`.execute(trx);
  const folded = foldRefunds(refunds, new Map(rows.map((row) => [row.id, row])));
  await upsertRows(trx, schema, 'order_refunds', 'id', [...folded.values()]);
}

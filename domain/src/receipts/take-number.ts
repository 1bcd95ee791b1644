import type { EventStore, NewEventMetadata } from '../events/port.js';
import {
  nextReceiptNumber,
  parseReceiptEvent,
  type ReceiptNumberAssigned,
  receiptsStream,
} from './numbering.js';

export interface ReceiptNumberRequest {
  orderId: string;
  year: number;
  /** The year stream's last revision before the order asked (OrderReceiptRequested); null: it had none. */
  receiptsAfterRevision: number | null;
  now: string;
}

/**
 * The order's number from its year's stream: the one it already holds, else the next one, appended with the
 * revision of the last event read as the expected revision. Only events after the order's request are read: no
 * number can be the order's before it asked. So a retry after a crash between this append and the order's finds
 * the number it took, and two racing assignments cannot both append: the second conflicts
 * (WrongExpectedRevisionError, for the caller to retry), reads again and finds the first one's number or takes the
 * next. Numbers therefore follow one another without a gap, and an order never holds two.
 */
export async function takeReceiptNumber(
  eventStore: EventStore,
  request: ReceiptNumberRequest,
  metadata: NewEventMetadata,
): Promise<ReceiptNumberAssigned> {
  const stream = receiptsStream(request.year);
  let last: ReceiptNumberAssigned | null = null;
  let lastRevision: bigint | null = null;
  // From the last number before the request (it gives the sequence to follow): the year's earlier numbers are
  // never read.
  for await (const event of eventStore.readStream(stream, BigInt(request.receiptsAfterRevision ?? 0))) {
    lastRevision = event.revision;
    const assigned = parseReceiptEvent(event.type, event.data);
    if (!assigned) continue;
    if (assigned.orderId === request.orderId) return assigned;
    last = assigned;
  }
  const next = nextReceiptNumber(last, request);
  await eventStore.append(
    stream,
    [{ type: 'ReceiptNumberAssigned', data: next, metadata }],
    lastRevision ?? 'no_stream',
  );
  return next;
}

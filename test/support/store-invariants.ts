import { type EventStore, type RecordedEvent, recordedOrThrow } from '@licensestore/domain/events';

/** What a store that has lost or doubled nothing looks like after a fault, or the ways it differs. */
export interface StoreInvariants {
  /** Orders in the log (one per captured PayPal order when nothing is doubled). */
  orders: number;
  /** Orders that were paid and so must carry their keys and one delivery e-mail. */
  paidOrders: number;
  keysAssigned: number;
  problems: string[];
}

interface OrderFacts {
  paypalOrderId: string;
  units: number;
  paid: boolean;
  closed: boolean;
  keys: string[];
  fulfilled: number;
  emails: string[];
}

const PAGE = 1000;

async function* wholeLog(eventStore: EventStore): AsyncGenerator<RecordedEvent> {
  let after: string | null = null;
  for (;;) {
    const page = await eventStore.readAll(after, PAGE);
    yield* page.map(recordedOrThrow);
    if (page.length < PAGE) return;
    after = page[page.length - 1]?.position ?? null;
  }
}

type Data = Record<string, unknown> & { orderId: string };

/**
 * Reads the whole log (the store's truth) and checks the promises a paying customer relies on: one order per
 * PayPal order, every paid order with exactly its keys and exactly one delivery e-mail, no key given twice, and
 * each recorded e-mail received by the mail transport exactly once (`delivered`: Message-ID → times received).
 * `captured` lists PayPal orders the payment provider captured: each must have become an order. `mayRepeat`
 * counts, per Message-ID, the retries that announced they might send a message again (a worker killed between the
 * mail server's acceptance and its note of it); each lets that same message arrive once more, and nothing else does.
 */
export async function checkStoreInvariants(
  eventStore: EventStore,
  delivered: ReadonlyMap<string, number>,
  captured: readonly string[] = [],
  mayRepeat: ReadonlyMap<string, number> = new Map(),
): Promise<StoreInvariants> {
  const orders = new Map<string, OrderFacts>();
  const ordersOfPaypalOrder = new Map<string, string[]>();
  const keyOwners = new Map<string, string[]>();
  const order = (id: string) => {
    const facts = orders.get(id);
    if (!facts) throw new Error(`event for order ${id} before its OrderCaptured`);
    return facts;
  };
  for await (const event of wholeLog(eventStore)) {
    const data = event.data as Data;
    switch (event.type) {
      case 'OrderCaptured': {
        const { paypalOrderId, lines, status } = data as Data & {
          paypalOrderId: string;
          lines: { quantity: number }[];
          status: string;
        };
        orders.set(data.orderId, {
          paypalOrderId,
          units: lines.reduce((sum, line) => sum + line.quantity, 0),
          paid: status === 'processing',
          closed: false,
          keys: [],
          fulfilled: 0,
          emails: [],
        });
        ordersOfPaypalOrder.set(paypalOrderId, [
          ...(ordersOfPaypalOrder.get(paypalOrderId) ?? []),
          data.orderId,
        ]);
        break;
      }
      case 'OrderPaymentCompleted':
        order(data.orderId).paid = true;
        break;
      case 'OrderPaymentDenied':
      case 'OrderRefunded':
        order(data.orderId).closed = true;
        break;
      case 'OrderLicenceKeysAssigned':
        order(data.orderId).keys.push(
          ...(data as Data & { keys: { keyId: string }[] }).keys.map((k) => k.keyId),
        );
        break;
      case 'LicenceKeysAssigned':
        for (const { keyId } of (data as Data & { keys: { keyId: string }[] }).keys) {
          keyOwners.set(keyId, [...(keyOwners.get(keyId) ?? []), data.orderId]);
        }
        break;
      case 'OrderFulfilled':
        order(data.orderId).fulfilled += 1;
        break;
      case 'DeliveryEmailSent':
        order(data.orderId).emails.push((data as Data & { messageId: string }).messageId);
        break;
    }
  }

  const problems: string[] = [];
  for (const [paypalOrderId, ids] of ordersOfPaypalOrder) {
    if (ids.length > 1) problems.push(`PayPal order ${paypalOrderId} became ${ids.length} orders`);
  }
  for (const paypalOrderId of captured) {
    if (!ordersOfPaypalOrder.has(paypalOrderId)) {
      problems.push(`PayPal order ${paypalOrderId} was captured but is no order`);
    }
  }
  for (const [keyId, owners] of keyOwners) {
    if (owners.length > 1)
      problems.push(`key ${keyId} assigned ${owners.length} times (${owners.join(', ')})`);
  }
  let paidOrders = 0;
  for (const [orderId, facts] of orders) {
    if (!facts.paid || facts.closed) continue;
    paidOrders += 1;
    if (new Set(facts.keys).size !== facts.units || facts.keys.length !== facts.units) {
      problems.push(`order ${orderId} has ${facts.keys.length} keys for ${facts.units} units`);
    }
    if (facts.fulfilled !== 1) problems.push(`order ${orderId} fulfilled ${facts.fulfilled} times`);
    if (facts.emails.length !== 1) problems.push(`order ${orderId} recorded ${facts.emails.length} e-mails`);
    for (const messageId of facts.emails) {
      const times = delivered.get(messageId) ?? 0;
      if (times < 1 || times > 1 + (mayRepeat.get(messageId) ?? 0)) {
        problems.push(`order ${orderId}: e-mail ${messageId} received ${times} times`);
      }
    }
  }
  return { orders: orders.size, paidOrders, keysAssigned: keyOwners.size, problems };
}

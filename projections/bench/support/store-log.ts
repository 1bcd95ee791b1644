import { checkoutStream, type OrderEvent } from '@licensestore/domain';
import type { KeyVault } from '@licensestore/platform/key-vault';
import { type BulkAppend, catalogueHistory } from '../../test/support/catalogue.js';
import { deliveryHistory } from '../../test/support/license-keys.js';

type OrderCaptured = Extract<OrderEvent, { type: 'OrderCaptured' }>['data'];

/** The checkout an order came from, as the API records it before the order: started, then captured. */
export function checkoutOf(order: OrderCaptured): BulkAppend {
  const startedAt = new Date(Date.parse(order.capturedAt) - 30_000).toISOString();
  return {
    stream: checkoutStream(order.paypalOrderId),
    expected: 'no_stream',
    events: [
      {
        type: 'CheckoutStarted',
        data: {
          paypalOrderId: order.paypalOrderId,
          lines: order.lines.map(({ lineId: _lineId, ...line }) => line),
          total: order.total,
          currency: order.currency,
          startedAt,
        },
      },
      {
        type: 'CheckoutCaptured',
        data: {
          paypalOrderId: order.paypalOrderId,
          orderId: order.orderId,
          captureId: order.captureId,
          captureStatus: order.status === 'pending' ? 'PENDING' : 'COMPLETED',
          customer: order.customer,
          capturedAt: order.capturedAt,
        },
      },
    ],
  };
}

/**
 * A whole store's log, seeded, about `events` long: a catalogue created first, then the store at work, its
 * admin edits to products (about one event in `catalogueShare`) between checkouts, captured orders, keys added
 * and removed, keys requested, assigned and recorded on orders, delivery e-mails, payments, refunds and status
 * changes, from the catalogue and delivery histories the projection tests use.
 */
export function* storeLog(options: {
  events: number;
  products: number;
  seed: number;
  vault: KeyVault;
  catalogueShare?: number;
}): Generator<BulkAppend> {
  const share = options.catalogueShare ?? 0.15;
  const catalogue = catalogueHistory({
    products: options.products,
    events: Math.ceil(options.events * share) + options.products * 3,
    seed: options.seed,
  });
  const productIds: string[] = [];
  let emitted = 0;
  // Not for…of: leaving that loop would close the history, whose later appends are the edits.
  while (productIds.length < options.products) {
    const creation = catalogue.next();
    if (creation.done) break;
    productIds.push(creation.value.stream.slice('product-'.length));
    emitted += creation.value.events.length;
    yield creation.value;
  }
  const delivery = deliveryHistory({
    seed: options.seed,
    products: options.products,
    productIds,
    steps: Number.MAX_SAFE_INTEGER,
    vault: options.vault,
  });
  let catalogueEvents = emitted;
  for (const append of delivery) {
    if (emitted >= options.events) return;
    const [first] = append.events;
    if (first?.type === 'OrderCaptured') {
      const checkout = checkoutOf(first.data);
      emitted += checkout.events.length;
      yield checkout;
    }
    emitted += append.events.length;
    yield append;
    while (catalogueEvents < emitted * share) {
      const edit = catalogue.next();
      if (edit.done) break;
      catalogueEvents += edit.value.events.length;
      emitted += edit.value.events.length;
      yield edit.value;
    }
  }
}

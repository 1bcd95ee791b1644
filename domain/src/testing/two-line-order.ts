import type { OrderEvent } from '../orders/events.js';
import { evolveOrder, initialOrderState, type PlacedOrder } from '../orders/order.js';

/**
 * An order of two lines (two units of an office suite, one antivirus) as its specs tell its history: the capture
 * that places it, the keys its lines receive, its fulfilment and its delivery e-mail, every event at `at` unless
 * told otherwise; and the order a history of it leaves.
 */
export function twoLineOrder(at: string, orderId = crypto.randomUUID()) {
  const office = { lineId: 'L1', productId: crypto.randomUUID(), productName: 'Office Suite', quantity: 2 };
  const antivirus = { lineId: 'L2', productId: crypto.randomUUID(), productName: 'Antivirus', quantity: 1 };
  const sealed = (n: number) => `v1.0badc0de.aXY${n}.Y3Q${n}.dGFn`;
  const captured = (captureStatus: 'COMPLETED' | 'PENDING' = 'COMPLETED'): OrderEvent => ({
    type: 'OrderCaptured',
    data: {
      orderId,
      paypalOrderId: 'PAYPAL1',
      captureId: 'CAP1',
      captureStatus,
      customer: { name: 'Ada', email: 'ada@example.com' },
      lines: [
        { ...office, unitPrice: '24.99', lineTotal: '49.98' },
        { ...antivirus, unitPrice: '10.00', lineTotal: '10.00' },
      ],
      total: '59.98',
      currency: 'USD',
      status: captureStatus === 'COMPLETED' ? 'processing' : 'pending',
      capturedAt: at,
    },
  });
  const keys = (lineId: string, ...keyIds: string[]): OrderEvent => ({
    type: 'OrderLicenceKeysAssigned',
    data: {
      orderId,
      lineId,
      keys: keyIds.map((keyId, n) => ({ keyId, key: sealed(n) })),
      assignedAt: at,
    },
  });
  const fulfilled = (fulfilledAt = at): OrderEvent => ({
    type: 'OrderFulfilled',
    data: { orderId, fulfilledAt },
  });
  const emailed: OrderEvent = {
    type: 'DeliveryEmailSent',
    data: {
      orderId,
      trigger: crypto.randomUUID(),
      recipient: 'ada@example.com',
      messageId: '<m@x>',
      sentAt: at,
    },
  };
  const stateOf = (...history: OrderEvent[]) => history.reduce(evolveOrder, initialOrderState) as PlacedOrder;
  return { orderId, office, antivirus, sealed, captured, keys, fulfilled, emailed, stateOf };
}

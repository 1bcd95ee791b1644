import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventVersions } from '../events/event-versions.js';
import type { RecordedEvent } from '../events/port.js';
import { orderEventSchemas } from './events.js';
import { evolveOrder, initialOrderState, type PlacedOrder } from './order.js';
import { orderCapturedV1ToV2 } from './upcasters.js';

/** An OrderCaptured as version 1 wrote it: the order's status, no capture status. */
const capturedV1 = (status: string) => ({
  orderId: randomUUID(),
  paypalOrderId: 'PAYPAL-1',
  captureId: 'CAPTURE-1',
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  lines: [
    {
      lineId: randomUUID(),
      productId: randomUUID(),
      productName: 'Office Suite',
      quantity: 2,
      unitPrice: '24.99',
      lineTotal: '49.98',
    },
  ],
  total: '49.98',
  currency: 'USD',
  status,
  capturedAt: '2026-01-05T10:01:00.000Z',
});

describe('OrderCaptured', () => {
  it('is at version 2', () => {
    expect(eventVersions.currentVersion('OrderCaptured')).toBe(2);
  });

  describe('upcast from version 1', () => {
    it.each([
      ['pending', 'PENDING', 'pending'],
      ['processing', 'COMPLETED', 'completed'],
    ] as const)('takes a %s order for a %s capture, the payment %s', (status, captureStatus, payment) => {
      const v1 = capturedV1(status);
      const v2 = orderEventSchemas.OrderCaptured.parse(orderCapturedV1ToV2(v1));
      expect(v2).toEqual({ ...v1, captureStatus });
      const order = evolveOrder(initialOrderState, { type: 'OrderCaptured', data: v2 }) as PlacedOrder;
      expect({ status: order.status, payment: order.payment }).toEqual({ status, payment });
    });

    it('leaves a status the v1 decider never wrote without a capture status, which the v2 schema refuses', () => {
      const v1 = capturedV1('completed');
      expect(orderCapturedV1ToV2(v1)).toBe(v1);
      expect(orderEventSchemas.OrderCaptured.safeParse(v1).success).toBe(false);
      expect(orderCapturedV1ToV2('not an object')).toBe('not an object');
    });

    it('is applied by the registry to a stored version 1 event', () => {
      const stored: RecordedEvent = {
        id: randomUUID(),
        streamId: `order-${randomUUID()}`,
        revision: 0n,
        type: 'OrderCaptured',
        data: capturedV1('pending'),
        metadata: {
          actor: { type: 'customer', id: 'ada' },
          correlationId: 'c',
          causationId: 'c',
          schemaVersion: 1,
        },
        position: '1',
        createdAt: new Date(),
      };
      expect(eventVersions.upcast(stored).data).toMatchObject({
        status: 'pending',
        captureStatus: 'PENDING',
      });
    });
  });
});

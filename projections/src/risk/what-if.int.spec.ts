import { randomUUID } from 'node:crypto';
import { NO_RISK_RULES, RISK_WHAT_IF_STREAM, WHAT_IF_EVENT_TYPES } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import { openEventStore } from '@licensestore/platform/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
import {
  appendOrder,
  appendProduct,
  orderCaptured,
  orderLine,
  paymentDenied,
  productCreated,
  productFields,
  refunded,
} from '../../test/support/orders.js';
import { runWhatIf } from './what-if.js';

describe('A what-if run in the projections role', () => {
  let store: EventStore;
  beforeAll(async () => {
    store = await openEventStore({ databaseUrl: await createTestDatabase() });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('folds the order events it counts only, and records the run with the metadata it was asked with', async () => {
    const at = (day: number) => new Date(Date.UTC(2025, 4, day, 12)).toISOString();
    const productId = randomUUID();
    await appendProduct(store, productId, productCreated(productId, productFields(), at(1)));
    const big = (name: string, day: number) =>
      orderCaptured({
        name,
        email: `${name}@example.com`,
        lines: [orderLine('Suite', 1, '900.00')],
        capturedAt: at(day),
      });
    const [ann, ben, cat] = [big('ann', 2), big('ben', 3), big('cat', 4)];
    await appendOrder(store, ann.data.orderId, ann, refunded(ann.data.orderId, at(10)));
    await appendOrder(store, ben.data.orderId, ben, paymentDenied(ben.data.orderId, at(11)));
    await appendOrder(store, cat.data.orderId, cat);
    const reads: string[] = [];
    const counting: EventStore = {
      ...store,
      readAll: (after, limit) => {
        reads.push('readAll');
        return store.readAll(after, limit);
      },
      readAllOfTypes: (after, limit, types) => {
        reads.push(`readAllOfTypes ${types.join(',')}`);
        return store.readAllOfTypes(after, limit, types);
      },
      append: (stream, events, expected) => store.append(stream, events, expected),
    };
    const metadata = {
      actor: { type: 'admin' as const, id: randomUUID() },
      correlationId: 'c',
      causationId: 'r',
    };
    const result = await runWhatIf(counting, {
      draft: { ...NO_RISK_RULES, holdAtOrAbove: '500.00' },
      current: NO_RISK_RULES,
      period: { from: '2025-05-01T00:00:00.000Z', to: '2025-06-01T00:00:00.000Z' },
      metadata,
    });
    expect(result).toMatchObject({ orders: 3, held: 3, heldValue: '2700.00', heldLaterRefundedOrDenied: 2 });
    expect(reads).toEqual([`readAllOfTypes ${WHAT_IF_EVENT_TYPES.join(',')}`]);
    const run = await store.readLastEvent(RISK_WHAT_IF_STREAM);
    expect(run).toMatchObject({
      type: 'RiskWhatIfRun',
      data: { result },
      metadata: { actor: metadata.actor },
    });
  });
});

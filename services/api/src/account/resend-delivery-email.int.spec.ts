import { randomUUID } from 'node:crypto';
import { type OrderEvent, orderEventSchemas, orderStream } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendOrder,
  orderCaptured,
  orderLine,
  statusChanged,
} from '../../../../projections/test/support/orders.js';
import type { TestApi } from '../../test/support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from '../../test/support/api-with-read-model.js';

describe('POST /api/my-orders/:orderId/delivery-email', () => {
  let store: ApiWithReadModel;
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let api: TestApi;

  const resend = (orderId: string, cookie?: string) =>
    fetch(`${api.url}/api/my-orders/${orderId}/delivery-email`, {
      method: 'POST',
      headers: { origin: api.url, ...(cookie ? { cookie } : {}) },
    });
  const customer = (email: string) => api.sessionCookie({ kind: 'customer', subjectId: email });

  const record = async (orderId: string, ...events: OrderEvent[]) => {
    const { position } = await appendOrder(eventStore, orderId, ...events);
    expect(
      await waitForProjections(database.pool, position, { projectors: ['orders'], timeoutMs: 10_000 }),
    ).toBe(true);
  };

  /** An order of `email` whose one unit has its key: what the delivery e-mail is sent for. */
  const fulfilledOrder = async (email: string) => {
    const line = orderLine('Windows 11 Pro', 1, '19.99');
    const captured = orderCaptured({
      name: 'Ada Lovelace',
      email,
      lines: [line],
      capturedAt: new Date().toISOString(),
    });
    const { orderId } = captured.data;
    const now = new Date().toISOString();
    await record(
      orderId,
      captured,
      {
        type: 'OrderLicenceKeysAssigned',
        data: orderEventSchemas.OrderLicenceKeysAssigned.parse({
          orderId,
          lineId: line.lineId,
          keys: [{ keyId: randomUUID(), key: api.keyVault.seal('AAAAA-BBBBB-CCCCC-DDDDD-EEEEE') }],
          assignedAt: now,
        }),
      },
      { type: 'OrderFulfilled', data: orderEventSchemas.OrderFulfilled.parse({ orderId, fulfilledAt: now }) },
    );
    return orderId;
  };

  const resendRequests = async (orderId: string) => {
    const found = [];
    for await (const event of eventStore.readStream(orderStream(orderId))) {
      if (event.type === 'DeliveryEmailResendRequested') found.push(event);
    }
    return found;
  };

  beforeAll(async () => {
    store = await startApiWithReadModel();
    ({ api, database, eventStore } = store);
  });
  afterAll(() => store?.stop());

  it('asks for the e-mail again as the customer, three times an hour per order and per customer', async () => {
    const email = `ada-${randomUUID()}@example.com`;
    const first = await fulfilledOrder(email);
    const second = await fulfilledOrder(email);
    const cookie = await customer(email.toUpperCase());

    for (let time = 0; time < 3; time += 1) {
      const response = await resend(first, cookie);
      expect(response.status).toBe(202);
      expect(await response.json()).toStrictEqual({ requestedAt: expect.any(String) });
    }
    const requests = await resendRequests(first);
    expect(requests).toHaveLength(3);
    expect(requests[0]?.metadata.actor).toStrictEqual({ type: 'customer', id: email.toUpperCase() });

    const fourth = await resend(first, cookie);
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(await fourth.json()).toStrictEqual({
      error:
        'The keys of this order were emailed 3 times in the last hour. Please check your spam folder, or try ' +
        'again in 60 minutes.',
    });
    // The same customer's other order: their own limit is spent too.
    const other = await resend(second, cookie);
    expect(other.status).toBe(429);
    expect(((await other.json()) as { error: string }).error).toMatch(
      /^You asked for 3 emails with your keys in the last hour\./,
    );
    expect(await resendRequests(first)).toHaveLength(3);
    expect(await resendRequests(second)).toHaveLength(0);
  });

  it('refuses a cancelled order with a sentence, and an order still waiting for keys', async () => {
    const email = `grace-${randomUUID()}@example.com`;
    const cancelled = await fulfilledOrder(email);
    await record(cancelled, statusChanged(cancelled, 'completed', 'cancelled', new Date().toISOString()));
    const cookie = await customer(email);
    const refused = await resend(cancelled, cookie);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toStrictEqual({
      error: `Order #${cancelled.slice(0, 8).toUpperCase()} is cancelled: its license keys are not sent again.`,
    });

    const waiting = orderCaptured({
      name: 'Grace Hopper',
      email,
      lines: [orderLine('Windows 11 Pro', 1, '19.99')],
      capturedAt: new Date().toISOString(),
    });
    await record(waiting.data.orderId, waiting);
    const early = await resend(waiting.data.orderId, cookie);
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: string }).error).toContain('still waiting for license keys');
  });

  it("answers 404 for another customer's order and an unknown one, 401 when signed out", async () => {
    const theirs = await fulfilledOrder(`theirs-${randomUUID()}@example.com`);
    const cookie = await customer(`mine-${randomUUID()}@example.com`);
    for (const orderId of [theirs, randomUUID(), 'not-an-id']) {
      const response = await resend(orderId, cookie);
      expect(response.status).toBe(404);
      expect(await response.json()).toStrictEqual({ error: 'Order not found' });
    }
    expect(await resendRequests(theirs)).toHaveLength(0);
    expect((await resend(theirs)).status).toBe(401);
  });
});

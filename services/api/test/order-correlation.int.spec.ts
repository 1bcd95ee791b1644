import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkoutStream, licenseKeysStream, orderStream } from '@licensestore/domain';
import type { LogEntry } from '@licensestore/platform/logging';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readEvents } from './support/checkout.js';
import { type ObservedStore, startObservedStore } from './support/observed-store.js';
import { purchase } from './support/purchase.js';

const DELIVERED_WITHIN_MS = 30_000;
const customer = {
  customerName: 'Ada Lovelace',
  customerEmail: `ada-${randomUUID().slice(0, 8)}@example.com`,
};

const linesOf = (
  entries: LogEntry[],
  message: string,
  correlationId: string,
  field: 'correlationId' | 'clientCorrelationId' = 'correlationId',
) =>
  entries.filter(
    (entry) =>
      entry.message === message && (entry.fields as Record<string, unknown>)[field] === correlationId,
  );

describe('One purchase, followed by its correlation id', () => {
  let store: ObservedStore;
  /** The browser's own id: kept on the access lines only, never on an event. */
  const clientCorrelationId = `purchase-${randomUUID()}`;
  /** The id the server gave the capture request: what links the order's events, jobs and e-mail. */
  let correlationId: string;
  let orderId: string;
  let paypalOrderId: string;

  beforeAll(async () => {
    store = await startObservedStore();
    const productId = await store.productWithKeys(2);
    ({ orderId, paypalOrderId } = await purchase(store.api.url, productId, customer, {
      'X-Correlation-Id': clientCorrelationId,
    }));
    // Bounded: the delivery e-mail is the last step of the keys' chain, the receipt's number the last of its own.
    await vi.waitFor(
      async () => {
        const types = (await readEvents(store.eventStore, orderStream(orderId))).map((event) => event.type);
        if (!types.includes('DeliveryEmailSent')) throw new Error('not delivered yet');
        if (!types.includes('OrderReceiptIssued')) throw new Error('no receipt number yet');
      },
      { timeout: DELIVERED_WITHIN_MS, interval: 100 },
    );
    const capture = store.api.logger.entries.find(
      (entry) => (entry.fields as { path?: string }).path === `/paypal/order/${paypalOrderId}/capture`,
    );
    correlationId = (capture?.fields as { correlationId?: string } | undefined)?.correlationId ?? 'none';
    // The workers look at the captured checkout once more, after a delay, in case the api left it without its order.
    await vi.waitFor(
      () => {
        const done = linesOf(store.workersLog.entries, 'job done', correlationId);
        if (!done.some(({ fields }) => (fields as { queue: string }).queue === 'place-captured-order')) {
          throw new Error('the captured checkout not looked at yet');
        }
      },
      { timeout: DELIVERED_WITHIN_MS, interval: 100 },
    );
  });
  afterAll(() => store?.stop());

  it("keeps the client's id on the api's access line of each of its requests, each with its own ids", () => {
    const lines = linesOf(store.api.logger.entries, 'request', clientCorrelationId, 'clientCorrelationId');
    expect(lines.map(({ level, fields }) => ({ level, ...fields }))).toEqual([
      expect.objectContaining({ level: 'info', method: 'POST', path: '/paypal/order', status: 201 }),
      // The buyer's approval in the (embedded) emulator's window.
      expect.objectContaining({
        level: 'info',
        method: 'POST',
        path: `/paypal-sandbox/buyer/orders/${paypalOrderId}/approve`,
        status: 200,
      }),
      expect.objectContaining({
        level: 'info',
        method: 'POST',
        path: `/paypal/order/${paypalOrderId}/capture`,
        status: 200,
      }),
    ]);
    for (const { fields } of lines) {
      expect(fields).toMatchObject({ requestId: expect.any(String), durationMs: expect.any(Number) });
    }
    const requestIds = lines.map(({ fields }) => (fields as { requestId: string }).requestId);
    expect(new Set(requestIds).size).toBe(3);
    // Made by the server: each request's correlation id is its own request id.
    for (const { fields } of lines) {
      const { requestId, correlationId: made } = fields as { requestId: string; correlationId: string };
      expect(made).toBe(requestId);
    }
  });

  it("is on the capture's event, every event of the order's stream and the inventory's assignment; the client's id on none", async () => {
    const order = await readEvents(store.eventStore, orderStream(orderId));
    expect(order.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'OrderCaptured',
        'OrderLicenceKeysAssigned',
        'OrderFulfilled',
        'DeliveryEmailSent',
        'OrderReceiptIssued',
      ]),
    );
    const checkout = await readEvents(store.eventStore, checkoutStream(paypalOrderId));
    expect(checkout.map((event) => event.type)).toEqual(['CheckoutStarted', 'CheckoutCaptured']);
    // The checkout began in another request (POST /paypal/order), under that request's own id.
    expect(checkout[0]?.metadata.correlationId).not.toBe(correlationId);
    for (const event of [...checkout.slice(1), ...order]) {
      expect({ type: event.type, correlationId: event.metadata.correlationId }).toEqual({
        type: event.type,
        correlationId,
      });
    }
    const { lines } = (order[0]?.data ?? { lines: [] }) as { lines: Array<{ productId: string }> };
    const inventory = await readEvents(store.eventStore, licenseKeysStream(lines[0]?.productId ?? ''));
    const assignment = inventory.filter(
      (event) =>
        event.type === 'LicenceKeysAssigned' && (event.data as { orderId: string }).orderId === orderId,
    );
    expect(assignment).toHaveLength(1);
    expect(assignment[0]?.metadata.correlationId).toBe(correlationId);
    const recorded = [...checkout, ...order, ...inventory].map(({ data, metadata }) => ({ data, metadata }));
    expect(JSON.stringify(recorded)).not.toContain(clientCorrelationId);
  });

  it("is on the workers' line for each job, with the job's and its event's ids", () => {
    const jobs = linesOf(store.workersLog.entries, 'job done', correlationId).map(({ fields }) => fields);
    expect(jobs.map((fields) => (fields as { queue: string }).queue).sort()).toEqual([
      'assign-keys',
      'issue-receipt',
      'place-captured-order',
      'record-order-keys',
      'send-delivery-email',
    ]);
    // The api placed the order itself: the workers' look at the captured checkout found it and added nothing.
    expect(
      jobs.find((fields) => (fields as { queue: string }).queue === 'place-captured-order'),
    ).toMatchObject({
      result: 'already placed',
    });
    for (const fields of jobs) {
      expect(fields).toMatchObject({ jobId: expect.any(String), eventId: expect.any(String), orderId });
    }
  });

  it('is on the delivery e-mail: its log line (with the order) and its X-Correlation-Id header', async () => {
    const [sent] = linesOf(store.workersLog.entries, 'mail written', correlationId);
    expect(sent?.fields).toMatchObject({ orderId, messageId: expect.stringMatching(/^<delivery\./) });
    const { file } = (sent?.fields ?? { file: '' }) as { file: string };
    expect(file.startsWith(join(store.mailDir, 'mail'))).toBe(true);
    expect(await readFile(file, 'utf8')).toMatch(
      new RegExp(`^X-Correlation-Id: ${correlationId}\\r?$`, 'im'),
    );
  });

  it("never puts the customer's address or a license key in clear in a log line", async () => {
    const assigned = (await readEvents(store.eventStore, orderStream(orderId))).filter(
      (event) => event.type === 'OrderLicenceKeysAssigned',
    );
    const keys = assigned.flatMap((event) =>
      (event.data as { keys: Array<{ key: string }> }).keys.map(({ key }) => store.api.keyVault.open(key)),
    );
    expect(keys).toHaveLength(1);
    const logged = JSON.stringify([...store.api.logger.entries, ...store.workersLog.entries]);
    for (const secret of [customer.customerEmail, ...keys]) expect(logged).not.toContain(secret);
  });
});

import { randomUUID } from 'node:crypto';
import {
  type AssignedKey,
  type CheckoutCommand,
  checkoutDecider,
  checkoutStream,
  decideCheckout,
  orderDecider,
  orderStream,
  type PlacedOrder,
} from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import type { EventStore, RecordedEvent } from '@licensestore/domain/events';
import { placeCheckoutOrder } from '@licensestore/platform/checkout-orders';
import type { Job } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readMail } from '../../../test/support/mail.js';
import { deliveriesByMessageId } from '../../../test/support/smtp-server.js';
import { jobIdFor } from '../reactor/reactor.js';
import { openWorkersFixture, testSideEffects, type WorkersFixture } from '../testing/fixtures.js';
import { addKeys, createProduct } from '../testing/store.js';
import type { SideEffectSettings } from './context.js';

const QUEUE = 'place-captured-order';
const REPAIR_DELAY_MS = 500;
const FINISHED_WITHIN_MS = 20_000;

async function readStream(eventStore: EventStore, stream: string): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const event of eventStore.readStream(stream)) events.push(event);
  return events;
}

/**
 * What the api records when a shopper pays: the checkout started, then its capture, under the capture request's
 * correlation id; and nothing more, as when the api ends before it appends the order.
 */
async function captureCheckout(eventStore: EventStore, productId: string, quantity: number) {
  const paypalOrderId = `PAYPAL-${randomUUID()}`;
  const orderId = randomUUID();
  const correlationId = randomUUID();
  const customer = { name: 'Ada Lovelace', email: `ada-${orderId.slice(0, 8)}@example.com` };
  const total = `${10 * quantity}.00`;
  const line = { productId, productName: 'Adobe Photoshop', quantity, unitPrice: '10.00', lineTotal: total };
  const decide = (command: CheckoutCommand, state = checkoutDecider.initialState) => {
    const events = decideCheckout(command, state);
    return { events, state: events.reduce(checkoutDecider.evolve, state) };
  };
  const now = new Date().toISOString();
  const started = decide({
    type: 'StartCheckout',
    paypalOrderId,
    lines: [line],
    total,
    currency: 'USD',
    now,
  });
  const captured = decide(
    {
      type: 'CaptureCheckout',
      paypalOrderId,
      orderId,
      capture: { id: `CAPTURE-${orderId.slice(0, 8)}`, status: 'COMPLETED', amount: total, currency: 'USD' },
      customer,
      now,
    },
    started.state,
  );
  const append = (events: typeof started.events, actorId: string, expected: 'no_stream' | bigint) =>
    eventStore.append(
      checkoutStream(paypalOrderId),
      events.map(({ type, data }) => ({
        id: randomUUID(),
        type,
        data,
        metadata: {
          actor: { type: 'customer', id: actorId },
          correlationId: expected === 'no_stream' ? randomUUID() : correlationId,
          causationId: randomUUID(),
        },
      })),
      expected,
    );
  await append(started.events, 'guest', 'no_stream');
  await append(captured.events, customer.email, 0n);
  const checkout = await loadStream(eventStore, checkoutStream(paypalOrderId), checkoutDecider);
  const capturedEventId = checkout.causes.get('CheckoutCaptured')?.eventId as string;
  return { paypalOrderId, orderId, correlationId, customer, checkout, capturedEventId };
}

describe('Placing the order of a captured checkout', () => {
  let fixture: WorkersFixture;
  let env: WorkersFixture['env'];
  let smtp: WorkersFixture['smtp'];
  let sideEffects: SideEffectSettings;

  /** The job the CheckoutCaptured event caused, once a worker has finished it. */
  const finishedJob = (capturedEventId: string) =>
    vi.waitFor(
      async () => {
        const job = (await env.jobs.queue(QUEUE).getJob(jobIdFor(capturedEventId, QUEUE))) as Job | undefined;
        if (!job?.finishedOn) throw new Error('the job has not finished');
        return job;
      },
      { timeout: FINISHED_WITHIN_MS, interval: 100 },
    );
  const orderEvents = (orderId: string) => readStream(env.eventStore, orderStream(orderId));
  const deliveryRecorded = (orderId: string) =>
    fixture.log.until(
      `the delivery e-mail of order ${orderId}`,
      ({ ofType }) =>
        ofType('DeliveryEmailSent').some((event) => (event.data as { orderId: string }).orderId === orderId),
      FINISHED_WITHIN_MS,
    );

  beforeEach(async () => {
    fixture = await openWorkersFixture();
    ({ env, smtp } = fixture);
    await smtp.open();
    sideEffects = testSideEffects({
      mail: { ...testSideEffects().mail, smtpUrl: smtp.url },
      orderRepairDelayMs: REPAIR_DELAY_MS,
    });
    await fixture.startWorkers(sideEffects);
  });

  afterEach(() => fixture.close());

  describe('when the api ended between the checkout and order appends, and no webhook came', () => {
    it('places the order, which gets its keys and exactly one delivery e-mail', async () => {
      const productId = await createProduct(env.eventStore, 'Adobe Photoshop', 'Adobe Creative Cloud');
      const stock = await addKeys(env.eventStore, sideEffects.keyVault, productId, 3);
      const { paypalOrderId, orderId, correlationId, customer, capturedEventId } = await captureCheckout(
        env.eventStore,
        productId,
        2,
      );

      await deliveryRecorded(orderId);
      const job = await finishedJob(capturedEventId);
      expect(job.returnvalue).toBe('placed');
      expect(job.failedReason).toBeUndefined();

      const events = await orderEvents(orderId);
      const placed = events.filter((event) => event.type === 'OrderCaptured');
      expect(placed).toHaveLength(1);
      expect(placed[0]?.data).toMatchObject({ orderId, paypalOrderId, customer, status: 'processing' });
      // The order is the customer's, caused by the capture, as when the api places it.
      expect(placed[0]?.metadata).toMatchObject({
        actor: { type: 'customer', id: customer.email },
        correlationId,
        causationId: capturedEventId,
      });
      const { state } = await loadStream(env.eventStore, orderStream(orderId), orderDecider);
      const order = state as PlacedOrder;
      expect(order.fulfilled).toBe(true);
      const keys = Object.values(order.keys)
        .flat()
        .map((key: AssignedKey) => sideEffects.keyVault.open(key.key));
      expect(keys).toEqual(stock.slice(0, 2));

      expect(events.filter((event) => event.type === 'DeliveryEmailSent')).toHaveLength(1);
      expect(smtp.received).toHaveLength(1);
      expect([...deliveriesByMessageId(smtp.received).values()]).toEqual([1]);
      expect(smtp.received[0]?.recipients).toEqual([customer.email]);
      const { text } = await readMail(smtp.received[0]?.raw ?? '');
      for (const key of keys) expect(text).toContain(key);
    });
  });

  describe('when the api placed the order itself', () => {
    it('waits its delay, then leaves the order as it is: no second OrderCaptured, one delivery e-mail', async () => {
      const productId = await createProduct(env.eventStore, 'Adobe Photoshop', 'Adobe Creative Cloud');
      await addKeys(env.eventStore, sideEffects.keyVault, productId, 1);
      const { orderId, checkout, capturedEventId } = await captureCheckout(env.eventStore, productId, 1);
      const byApi = await placeCheckoutOrder(env.eventStore, checkout, { fresh: true });
      expect(byApi.placed).toBe(true);

      const job = await finishedJob(capturedEventId);
      expect(job.returnvalue).toBe('already placed');
      expect(job.opts.delay).toBe(REPAIR_DELAY_MS);
      expect((job.processedOn ?? 0) - job.timestamp).toBeGreaterThanOrEqual(REPAIR_DELAY_MS);
      await deliveryRecorded(orderId);

      const events = await orderEvents(orderId);
      const placed = events.filter((event) => event.type === 'OrderCaptured');
      expect(placed.map((event) => event.position)).toEqual([byApi.position]);
      expect(events.filter((event) => event.type === 'DeliveryEmailSent')).toHaveLength(1);
      expect(smtp.received).toHaveLength(1);
    });
  });
});

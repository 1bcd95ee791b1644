import { randomBytes } from 'node:crypto';
import {
  type AssignedKey,
  inventoryDecider,
  licenseKeysStream,
  orderDecider,
  orderStream,
  type PlacedOrder,
  soldTo,
} from '@licensestore/domain';
import { handleCommand, loadStream } from '@licensestore/domain/commands';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { QueueEvents } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMail } from '../../../test/support/mail.js';
import { deliveriesByMessageId } from '../../../test/support/smtp-server.js';
import type { WorkersOptions } from '../main.js';
import { jobIdFor } from '../reactor/reactor.js';
import {
  type KillableWorkers,
  openWorkersFixture,
  startKillableWorkers,
  testSideEffects,
  type WorkersFixture,
} from '../testing/fixtures.js';
import type { KillPoint } from '../testing/killable-workers.js';
import { addKeys, createProduct, placeOrder, setOrderStatus } from '../testing/store.js';
import type { SideEffectSettings } from './context.js';

const dataOf = (event: { data: unknown }) => event.data as Record<string, unknown> & { orderId: string };

describe('License-key delivery', () => {
  let fixture: WorkersFixture;
  let env: WorkersFixture['env'];
  let smtp: WorkersFixture['smtp'];
  let log: WorkersFixture['log'];
  let sideEffects: SideEffectSettings;
  let queueEvents: QueueEvents;

  const startInstance = (overrides: Partial<WorkersOptions> = {}) =>
    fixture.startWorkers(sideEffects, overrides);
  const orderState = async (orderId: string) =>
    (await loadStream(env.eventStore, orderStream(orderId), orderDecider)).state as PlacedOrder;
  const keysOf = (order: PlacedOrder) => Object.values(order.keys).flat();
  const clear = (keys: readonly AssignedKey[]) => keys.map((key) => sideEffects.keyVault.open(key.key));

  beforeEach(async () => {
    fixture = await openWorkersFixture();
    ({ env, smtp, log } = fixture);
    queueEvents = new QueueEvents('assign-keys', {
      connection: env.queues.connection,
      prefix: env.queues.prefix,
    });
    await queueEvents.waitUntilReady();
    await smtp.open();
    sideEffects = testSideEffects({ mail: { ...testSideEffects().mail, smtpUrl: smtp.url } });
  });

  afterEach(async () => {
    await fixture.stopWorkers();
    await queueEvents.close();
    await fixture.close();
  });

  describe('with three worker instances and 200 paid orders racing for 120 keys', () => {
    it('gives every key once, keeps 80 orders waiting, serves them oldest first when 100 keys arrive, and e-mails each order once', async () => {
      const productName = 'Microsoft Office 2021 Professional Plus';
      const productId = await createProduct(env.eventStore, productName, 'Office Suites');
      const firstKeys = await addKeys(env.eventStore, sideEffects.keyVault, productId, 120);
      await Promise.all([startInstance(), startInstance(), startInstance()]);

      const orderIds = await Promise.all(
        Array.from({ length: 200 }, () => placeOrder(env.eventStore, [{ productId, productName }])),
      );
      await log.until(
        'all 200 lines to ask and 120 delivery e-mails',
        ({ ofType }) =>
          ofType('LicenceKeysRequested').length === 200 && ofType('DeliveryEmailSent').length === 120,
        60_000,
      );

      const inventory = (await loadStream(env.eventStore, licenseKeysStream(productId), inventoryDecider))
        .state;
      expect([...inventory.available]).toEqual([]);
      expect([...inventory.sold.values()].filter((key) => key.status === 'assigned')).toHaveLength(120);
      expect([...inventory.waiting]).toHaveLength(80);
      const orders = await Promise.all(orderIds.map(orderState));
      const served = orders.filter((order) => order.fulfilled);
      expect(served).toHaveLength(120);
      expect(orders.filter((order) => keysOf(order).length === 0)).toHaveLength(80);
      const given = served.flatMap((order) => clear(keysOf(order)));
      expect(new Set(given).size).toBe(120);
      expect([...given].sort()).toEqual([...firstKeys].sort());
      // The waiting lines are exactly the orders without keys, queued in the order they asked.
      const askedInOrder = log.ofType('LicenceKeysRequested').map((event) => dataOf(event).orderId);
      const waiting = [...inventory.waiting].map((line) => line.orderId);
      expect(waiting).toEqual(askedInOrder.slice(120));
      expect(new Set(waiting)).toEqual(
        new Set(orders.filter((order) => !order.fulfilled).map((order) => order.orderId)),
      );

      const moreKeys = await addKeys(env.eventStore, sideEffects.keyVault, productId, 100);
      await log.until(
        '200 delivery e-mails',
        ({ ofType }) => ofType('DeliveryEmailSent').length === 200,
        60_000,
      );
      await fixture.stopWorkers();

      const lateAssignments = log
        .ofType('LicenceKeysAssigned')
        .filter((event) => waiting.includes(dataOf(event).orderId));
      expect(lateAssignments.map((event) => dataOf(event).orderId)).toEqual(waiting);
      expect(lateAssignments.flatMap((event) => clear(dataOf(event).keys as AssignedKey[]))).toEqual(
        moreKeys.slice(0, 80),
      );
      const final = await Promise.all(orderIds.map(orderState));
      expect(final.every((order) => order.fulfilled && order.status === 'completed')).toBe(true);
      const allGiven = final.flatMap((order) => clear(keysOf(order)));
      expect(new Set(allGiven).size).toBe(200);

      // One e-mail per order, delivered once, carrying that order's key.
      const sent = log.ofType('DeliveryEmailSent').map(dataOf);
      expect(new Set(sent.map((data) => data.orderId)).size).toBe(200);
      const deliveries = deliveriesByMessageId(smtp.received);
      expect(deliveries.size).toBe(200);
      expect([...deliveries.values()].every((count) => count === 1)).toBe(true);
      for (const order of final) {
        const mail = smtp.received.find((message) =>
          message.recipients.includes(order.customer.email),
        ) as (typeof smtp.received)[number];
        // As the customer reads it: quoted-printable may break a long link across lines of the raw message.
        const { text } = await readMail(mail.raw);
        expect(text).toContain(clear(keysOf(order))[0]);
        expect(text).toContain(`order-confirmation/${order.orderId}`);
      }
      for (const queue of ['assign-keys', 'record-order-keys', 'send-delivery-email']) {
        expect(await env.jobs.queue(queue).getJobCounts('failed', 'waiting', 'active', 'delayed')).toEqual({
          failed: 0,
          waiting: 0,
          active: 0,
          delayed: 0,
        });
      }
    }, 180_000);
  });

  describe('an order whose capture PayPal still holds', () => {
    it('gets its keys once the payment completes, unless an admin cancelled it; each step names its cause', async () => {
      await startInstance();
      const productId = await createProduct(env.eventStore, 'Windows 11 Pro', 'Operating Systems');
      await addKeys(env.eventStore, sideEffects.keyVault, productId, 2);
      const paid = await placeOrder(env.eventStore, [{ productId }], { captureStatus: 'PENDING' });
      const cancelled = await placeOrder(env.eventStore, [{ productId }], { captureStatus: 'PENDING' });
      const webhook = {
        actor: { type: 'system', id: 'paypal' },
        causationId: 'webhook',
      } as const;
      await handleCommand(
        env.eventStore,
        orderStream(cancelled),
        orderDecider,
        { type: 'ChangeOrderStatus', orderId: cancelled, to: 'cancelled', now: new Date().toISOString() },
        { ...webhook, actor: { type: 'admin', id: 'admin' }, correlationId: 'admin' },
      );
      for (const orderId of [cancelled, paid]) {
        await handleCommand(
          env.eventStore,
          orderStream(orderId),
          orderDecider,
          {
            type: 'CompleteOrderPayment',
            orderId,
            captureId: `CAPTURE-${orderId}`,
            now: new Date().toISOString(),
          },
          { ...webhook, correlationId: `payment-${orderId}` },
        );
      }
      await log.until('the paid order e-mailed', ({ ofType }) => ofType('DeliveryEmailSent').length === 1);
      const cancelledPayment = log
        .ofType('OrderPaymentCompleted')
        .find((event) => event.streamId === orderStream(cancelled));
      const skipped = await env.jobs
        .queue('assign-keys')
        .getJob(jobIdFor(cancelledPayment?.id ?? '', 'assign-keys'));
      await skipped?.waitUntilFinished(queueEvents);
      expect((await env.jobs.queue('assign-keys').getJob(skipped?.id ?? ''))?.returnvalue).toBe(
        'not assigning: payment completed, status cancelled',
      );

      expect(log.ofType('LicenceKeysRequested').map((event) => dataOf(event).orderId)).toEqual([paid]);
      expect((await orderState(cancelled)).keys).toEqual({});
      const payment = log
        .ofType('OrderPaymentCompleted')
        .find((event) => event.streamId === orderStream(paid));
      const [requested] = log.ofType('LicenceKeysRequested');
      const [assigned] = log.ofType('LicenceKeysAssigned');
      const [recorded] = log.ofType('OrderLicenceKeysAssigned');
      const [fulfilled] = log.ofType('OrderFulfilled');
      const [sent] = log.ofType('DeliveryEmailSent');
      const byWorkers = { actor: { type: 'system', id: 'workers' }, correlationId: `payment-${paid}` };
      expect(requested?.metadata).toEqual({ ...byWorkers, causationId: payment?.id, schemaVersion: 1 });
      expect(assigned?.metadata).toEqual(requested?.metadata);
      expect(recorded?.metadata).toEqual({ ...byWorkers, causationId: assigned?.id, schemaVersion: 1 });
      expect(sent?.metadata).toEqual({ ...byWorkers, causationId: fulfilled?.id, schemaVersion: 1 });
    });
  });

  describe('when a worker process is killed between the inventory append and the order append', () => {
    let killable: KillableWorkers | null = null;

    afterEach(() => {
      killable?.kill();
      killable = null;
    });

    /** Waits until the job of `queue` caused by the first event of type `cause` has finished (run again after a kill). */
    const interruptedJobFinished = async (queue: string, cause: string) => {
      const interrupted = await env.jobs.queue(queue).getJob(jobIdFor(log.ofType(cause)[0]?.id ?? '', queue));
      expect(interrupted).toBeDefined();
      const events = new QueueEvents(queue, { connection: env.queues.connection, prefix: env.queues.prefix });
      try {
        await interrupted?.waitUntilFinished(events, 60_000);
      } finally {
        await events.close();
      }
    };

    /** Starts a workers process that kills itself at `killAt`; resolves once it runs, with its death to come. */
    const startKillable = async (killAt: KillPoint, keySecret: string) => {
      killable = await startKillableWorkers(env, killAt, keySecret, sideEffects);
      return killable;
    };

    it.each<KillPoint>(['after the inventory append', 'before the order append'])(
      'killed %s: the order gets exactly the keys the inventory gave it, and one e-mail',
      async (killAt) => {
        const keySecret = randomBytes(32).toString('hex');
        sideEffects = { ...sideEffects, keyVault: createKeyVault(keySecret) };
        const productId = await createProduct(env.eventStore, 'Norton 360 Deluxe', 'Norton Antivirus');
        await addKeys(env.eventStore, sideEffects.keyVault, productId, 3);
        const { died } = await startKillable(killAt, keySecret);

        const orderId = await placeOrder(env.eventStore, [{ productId, quantity: 2 }]);
        const [, signal] = await died;
        expect(signal).toBe('SIGKILL');
        const inventory = (await loadStream(env.eventStore, licenseKeysStream(productId), inventoryDecider))
          .state;
        const given = [...inventory.sold]
          .filter(([, key]) => soldTo(key).orderId === orderId)
          .map(([keyId, { key }]) => ({ keyId, key }));
        expect(given).toHaveLength(2);
        expect(keysOf(await orderState(orderId))).toEqual([]);

        // The dead process's job still holds its lock: the new instance takes it back once the lock expires and
        // runs it again; the order may be served before that, through the inventory's event.
        await startInstance();
        const [queue, cause] =
          killAt === 'after the inventory append'
            ? ['assign-keys', 'OrderCaptured']
            : ['record-order-keys', 'LicenceKeysAssigned'];
        await interruptedJobFinished(queue, cause);
        await log.until('the delivery e-mail', ({ ofType }) =>
          ofType('DeliveryEmailSent').some((event) => dataOf(event).orderId === orderId),
        );
        const order = await orderState(orderId);
        expect(keysOf(order)).toEqual(given);
        expect(order).toMatchObject({ fulfilled: true, status: 'completed' });
        expect(log.ofType('LicenceKeysRequested')).toHaveLength(1);
        expect(log.ofType('LicenceKeysAssigned')).toHaveLength(1);
        expect(log.ofType('OrderLicenceKeysAssigned')).toHaveLength(1);
        expect(await env.jobs.queue(queue).getJobCounts('completed', 'failed', 'active')).toEqual({
          completed: 1,
          failed: 0,
          active: 0,
        });
        await smtp.until('the e-mail', () => smtp.received.length > 0);
        expect(smtp.received).toHaveLength(1);
        const { text } = await readMail(smtp.received[0]?.raw ?? '');
        for (const key of clear(keysOf(order))) expect(text).toContain(key);
      },
      90_000,
    );

    it('killed after the inventory append of a reopened order: it keeps the new key it was given and gets one more e-mail', async () => {
      const keySecret = randomBytes(32).toString('hex');
      sideEffects = { ...sideEffects, keyVault: createKeyVault(keySecret) };
      const productId = await createProduct(env.eventStore, 'Norton 360 Deluxe', 'Norton Antivirus');
      await addKeys(env.eventStore, sideEffects.keyVault, productId, 2);
      await startInstance();
      const orderId = await placeOrder(env.eventStore, [{ productId, quantity: 1 }]);
      await smtp.until('the first e-mail', () => smtp.received.length === 1);
      const [oldKey] = keysOf(await orderState(orderId)) as [AssignedKey];
      await setOrderStatus(env.eventStore, orderId, 'cancelled');
      await log.until('the delivered key revoked', ({ ofType }) => ofType('LicenceKeyRevoked').length === 1);
      await fixture.stopWorkers();

      const { died } = await startKillable('after the inventory append', keySecret);
      await setOrderStatus(env.eventStore, orderId, 'completed');
      const [, signal] = await died;
      expect(signal).toBe('SIGKILL');
      const inventory = (await loadStream(env.eventStore, licenseKeysStream(productId), inventoryDecider))
        .state;
      const given = [...inventory.sold]
        .filter(([, key]) => soldTo(key).orderId === orderId && key.status === 'assigned')
        .map(([keyId, { key }]) => ({ keyId, key }));
      expect(given).toHaveLength(1);
      expect(given[0]?.keyId).not.toBe(oldKey.keyId);

      await startInstance();
      await interruptedJobFinished('assign-keys', 'OrderReopened');
      expect(await env.jobs.queue('assign-keys').getJobCounts('completed', 'failed', 'active')).toMatchObject(
        {
          failed: 0,
          active: 0,
        },
      );
      await log.until('the second delivery e-mail', ({ ofType }) => ofType('DeliveryEmailSent').length === 2);
      const order = await orderState(orderId);
      expect(keysOf(order)).toEqual(given);
      expect(order).toMatchObject({ fulfilled: true, status: 'completed' });
      expect(Object.values(order.keysGivenUp).flat()).toEqual([oldKey.keyId]);
      expect(log.ofType('LicenceKeysRequested')).toHaveLength(2);
      expect(log.ofType('LicenceKeysAssigned')).toHaveLength(2);
      await smtp.until('the second e-mail', () => smtp.received.length === 2);
      expect(smtp.received).toHaveLength(2);
      const [newKey] = clear(given);
      expect((await readMail(smtp.received[1]?.raw ?? '')).text).toContain(newKey);
      expect(smtp.received[1]?.raw).not.toContain(clear([oldKey])[0]);
    }, 90_000);
  });
});

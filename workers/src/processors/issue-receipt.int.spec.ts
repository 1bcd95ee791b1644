import { randomBytes } from 'node:crypto';
import { orderDecider, orderStream, type PlacedOrder } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import type { RecordedEvent } from '@licensestore/domain/events';
import { parseReceiptEvent, receiptsStream } from '@licensestore/domain/receipts';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { createOrderAccess } from '@licensestore/platform/order-access';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type KillableWorkers,
  openWorkersFixture,
  startKillableWorkers,
  testSideEffects,
  type WorkersFixture,
} from '../testing/fixtures.js';
import { placeOrder } from '../testing/store.js';
import type { SideEffectSettings } from './context.js';

const ORDERS = 20;
const orderIdOf = (event: RecordedEvent) => (event.data as { orderId: string }).orderId;

describe('Receipt numbers', () => {
  let fixture: WorkersFixture;
  let sideEffects: SideEffectSettings;
  let keySecret: string;

  beforeEach(async () => {
    fixture = await openWorkersFixture();
    keySecret = randomBytes(32).toString('hex');
    sideEffects = testSideEffects({
      keyVault: createKeyVault(keySecret),
      orderAccess: createOrderAccess(keySecret),
    });
  });

  afterEach(async () => {
    await fixture.close();
  });

  /** Places `count` paid orders at once (no products in stock: the orders wait for keys, not for receipts). */
  const payOrders = (count: number) =>
    Promise.all(
      Array.from({ length: count }, () =>
        placeOrder(fixture.env.eventStore, [{ productId: crypto.randomUUID() }]),
      ),
    );

  const receiptsOfTheYear = async () => {
    const events: RecordedEvent[] = [];
    for await (const event of fixture.env.eventStore.readStream(
      receiptsStream(new Date().getUTCFullYear()),
    )) {
      events.push(event);
    }
    return events;
  };

  /** Waits for every order's OrderReceiptIssued, then checks the year's numbers: 1..n, one per order, none twice. */
  async function expectGaplessNumbers(orderIds: readonly string[]) {
    const { log } = fixture;
    await log.until(
      `${orderIds.length} receipts`,
      ({ ofType }) => new Set(ofType('OrderReceiptIssued').map(orderIdOf)).size === orderIds.length,
      90_000,
    );
    const year = new Date().getUTCFullYear();
    const stream = await receiptsOfTheYear();
    const assigned = stream.map((event) => parseReceiptEvent(event.type, event.data));
    const sequences = Array.from({ length: orderIds.length }, (_, n) => n + 1);
    expect(assigned.map((event) => event?.sequence)).toEqual(sequences);
    expect(stream.map((event) => Number(event.revision) + 1)).toEqual(sequences);
    expect(new Set(assigned.map((event) => event?.orderId))).toEqual(new Set(orderIds));

    const issued = log.ofType('OrderReceiptIssued');
    expect(issued).toHaveLength(orderIds.length);
    expect(log.ofType('OrderReceiptRequested')).toHaveLength(orderIds.length);
    for (const orderId of orderIds) {
      const { state } = await loadStream(fixture.env.eventStore, orderStream(orderId), orderDecider);
      const fromStream = assigned.find((event) => event?.orderId === orderId);
      expect((state as PlacedOrder).receipt?.number).toBe(fromStream?.receiptNumber);
      expect(fromStream?.receiptNumber).toBe(`${year}-${String(fromStream?.sequence).padStart(6, '0')}`);
    }
  }

  describe('for 20 orders paid at once, with two workers instances', () => {
    it('are 1 to 20 of the year, one per order, none skipped and none twice', async () => {
      await fixture.startWorkers(sideEffects);
      await fixture.startWorkers(sideEffects);
      const orderIds = await payOrders(ORDERS);
      await expectGaplessNumbers(orderIds);
    }, 120_000);
  });

  describe('across the turn of the year', () => {
    /** A COMPLETED capture at `at`, placed as checkout places it. */
    const paidAt = (at: string) =>
      placeOrder(fixture.env.eventStore, [{ productId: crypto.randomUUID() }], { capturedAt: at });
    const numberOf = async (orderId: string) =>
      ((await loadStream(fixture.env.eventStore, orderStream(orderId), orderDecider)).state as PlacedOrder)
        .receipt?.number;

    it('numbers a payment at 23:59:59 on 31 December in its year, and one a second later in the next', async () => {
      await fixture.startWorkers(sideEffects);
      const lastOf2026 = await paidAt('2026-12-31T23:59:59.000Z');
      const firstOf2027 = await paidAt('2027-01-01T00:00:00.000Z');
      const secondOf2026 = await paidAt('2026-12-31T23:59:59.500Z');
      await fixture.log.until('three receipts', ({ ofType }) => ofType('OrderReceiptIssued').length === 3);
      expect(await numberOf(firstOf2027)).toBe('2027-000001');
      // The two of 2026 run at once: which takes the first number is the race's, not the clock's.
      expect(new Set([await numberOf(lastOf2026), await numberOf(secondOf2026)])).toEqual(
        new Set(['2026-000001', '2026-000002']),
      );
    });
  });

  describe('when a workers process is killed right after taking a number', () => {
    let killable: KillableWorkers | null = null;

    afterEach(() => {
      killable?.kill();
      killable = null;
    });

    it('its order gets that number when the job runs again, and the year stays gapless', async () => {
      killable = await startKillableWorkers(
        fixture.env,
        'after the receipt number append',
        keySecret,
        sideEffects,
      );
      const orderIds = await payOrders(ORDERS);
      const [, signal] = await killable.died;
      expect(signal).toBe('SIGKILL');
      const taken = await receiptsOfTheYear();
      expect(taken.length).toBeGreaterThan(0);
      const orphan = orderIdOf(taken.at(-1) as RecordedEvent);
      const { state } = await loadStream(fixture.env.eventStore, orderStream(orphan), orderDecider);
      // The number is in the year's stream, and the order does not know it yet.
      expect((state as PlacedOrder).receipt).toMatchObject({ number: null });

      // The dead process's jobs still hold their locks: a new instance takes them back once the locks expire.
      await fixture.startWorkers(sideEffects);
      await expectGaplessNumbers(orderIds);
    }, 120_000);
  });
});

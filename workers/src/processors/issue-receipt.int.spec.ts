import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { orderDecider, orderStream, type PlacedOrder } from '@licensestore/shared';
import { loadStream } from '@licensestore/shared/commands';
import type { RecordedEvent } from '@licensestore/shared/eventstore';
import { createKeyVault } from '@licensestore/shared/key-vault';
import { createOrderAccess } from '@licensestore/shared/order-access';
import { parseReceiptEvent, receiptsStream } from '@licensestore/shared/receipts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../../test/support/database.js';
import { openWorkersFixture, testSideEffects, type WorkersFixture } from '../testing/fixtures.js';
import type { KillableWorkersSettings } from '../testing/killable-workers.js';
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
    });
  });

  describe('when a workers process is killed right after taking a number', () => {
    const killableWorkers = fileURLToPath(new URL('../testing/killable-workers.ts', import.meta.url));
    let child: ChildProcess | null = null;

    afterEach(() => {
      child?.kill('SIGKILL');
      child = null;
    });

    it('its order gets that number when the job runs again, and the year stays gapless', async () => {
      const settings: KillableWorkersSettings = {
        killAt: 'after the receipt number append',
        databaseUrl: fixture.env.databaseUrl,
        redisUrl: testRedisUrl(),
        queuePrefix: fixture.env.queues.prefix ?? '',
        keySecret,
        publicUrl: sideEffects.publicUrl,
        mail: sideEffects.mail,
      };
      const worker = spawn(process.execPath, ['--import', 'tsx', killableWorkers], {
        env: { ...process.env, KILLABLE_WORKERS: JSON.stringify(settings) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      child = worker;
      const exited = once(worker, 'exit');
      const [line] = await once(createInterface({ input: worker.stdout }), 'line');
      expect(line).toBe('ready');

      const orderIds = await payOrders(ORDERS);
      const [, signal] = await exited;
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

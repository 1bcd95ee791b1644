import { randomUUID } from 'node:crypto';
import { orderCustodyStream, orderStream, parseOrderEvent } from '@licensestore/domain';
import type { RecordedEvent } from '@licensestore/domain/events';
import { silentLogger } from '@licensestore/platform/logging';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHistoryProjector } from '../src/key-history/projector.js';
import { openTestReadModel, readAllEvents } from './support/harness.js';
import { deliveryHistory, testVault } from './support/license-keys.js';
import { appendHistory } from './support/orders.js';

type Env = Awaited<ReturnType<typeof openTestReadModel>>;

/** The log applied to a fresh schema `batch` events per transaction; its rows as `key_id position kind order_id`. */
async function projectInBatches(env: Env, log: readonly RecordedEvent[], schema: string, batch: number) {
  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(env.db);
  await keyHistoryProjector.createTables(env.db, schema);
  for (let from = 0; from < log.length; from += batch) {
    const events = log.slice(from, from + batch);
    await env.db
      .transaction()
      .execute((trx) => keyHistoryProjector.apply(trx, events, { schema, log: silentLogger }));
  }
  const { rows } = await sql<{ row: string }>`
    SELECT concat_ws(' ', key_id, position, kind, order_id, details) AS row
      FROM ${sql.table(`${schema}.key_history`)} ORDER BY key_id, position`.execute(env.db);
  return rows.map(({ row }) => row);
}

/**
 * The oracle for deliveries: a delivery e-mail delivers every key its order was assigned before it in the log, as
 * `key_id position delivered order_id`.
 */
function expectedDeliveries(log: readonly RecordedEvent[]) {
  const assigned = new Map<string, string[]>();
  const delivered: string[] = [];
  for (const recorded of log) {
    const event = parseOrderEvent(recorded.type, recorded.data);
    if (event?.type === 'OrderLicenceKeysAssigned') {
      const keys = assigned.get(event.data.orderId) ?? [];
      keys.push(...event.data.keys.map(({ keyId }) => keyId));
      assigned.set(event.data.orderId, keys);
    } else if (event?.type === 'DeliveryEmailSent') {
      for (const keyId of assigned.get(event.data.orderId) ?? []) {
        delivered.push(`${keyId} ${recorded.position} delivered ${event.data.orderId}`);
      }
    }
  }
  return delivered.sort();
}

describe('The key-history projector', () => {
  let env: Env;
  let log: RecordedEvent[];

  beforeAll(async () => {
    env = await openTestReadModel();
    await appendHistory(
      env.store,
      deliveryHistory({ seed: 18, products: 3, steps: 200, vault: testVault() }),
    );
    log = await readAllEvents(env.store);
  });
  afterAll(async () => {
    await env.close();
  });

  describe('when a delivery e-mail is sent', () => {
    it('records every key assigned to the order before it, whether in this batch or an earlier one', async () => {
      const expected = expectedDeliveries(log);
      expect(expected.length).toBeGreaterThan(20);
      for (const [schema, batch] of [
        ['key_history_one', 1],
        ['key_history_seven', 7],
        ['key_history_all', log.length],
      ] as const) {
        const rows = await projectInBatches(env, log, schema, batch);
        const delivered = rows
          .filter((row) => row.split(' ')[2] === 'delivered')
          .map((row) => row.split(' ').slice(0, 4).join(' '))
          .sort();
        expect(delivered, `${batch} events a batch`).toEqual(expected);
      }
    });

    it('writes the same rows whatever the batches, and nothing twice when a batch is applied again', async () => {
      const one = await projectInBatches(env, log, 'key_history_each', 1);
      const all = await projectInBatches(env, log, 'key_history_whole', log.length);
      expect(all).toEqual(one);
      await env.db
        .transaction()
        .execute((trx) =>
          keyHistoryProjector.apply(trx, log, { schema: 'key_history_whole', log: silentLogger }),
        );
      const { rows } = await sql<{ count: number }>`
        SELECT count(*)::int AS count FROM key_history_whole.key_history`.execute(env.db);
      expect(rows[0]?.count).toBe(one.length);
    });
  });

  describe('when keys are shown in clear', () => {
    it("records each showing, on the order's custody stream and, as recorded before it, on the order's own", async () => {
      const orderId = randomUUID();
      const keyId = randomUUID();
      const showing = (channel: string) => ({
        type: 'LicenceKeysRevealed',
        data: {
          orderId,
          keyIds: [keyId],
          channel,
          viewer: { type: 'order-link', id: null },
          clientHash: 'a'.repeat(64),
          revealedAt: new Date().toISOString(),
        },
        metadata: { actor: { type: 'customer' as const, id: 'guest' }, correlationId: 'c', causationId: 'c' },
      });
      await env.store.append(orderStream(orderId), [showing('confirmation-page')], 'any');
      await env.store.append(orderCustodyStream(orderId), [showing('email-link')], 'any');
      const shown = (await readAllEvents(env.store)).filter(
        (event) => (event.data as { orderId?: string }).orderId === orderId,
      );
      const rows = await projectInBatches(env, shown, 'key_history_shown', shown.length);
      expect(rows.map((row) => row.split(' ').slice(2, 4).join(' '))).toEqual([
        `revealed ${orderId}`,
        `revealed ${orderId}`,
      ]);
      expect(rows.map((row) => JSON.parse(row.split(' ').slice(4).join(' ')).channel)).toEqual([
        'confirmation-page',
        'email-link',
      ]);
    });
  });
});

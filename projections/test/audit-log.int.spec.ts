import { randomUUID } from 'node:crypto';
import { licenseKeysStream, orderStream } from '@licensestore/domain';
import { WITHHELD_KEY } from '@licensestore/domain/audit';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogProjector } from '../src/audit-log/projector.js';
import { readAllEvents, recordingLogger, useRunningReadModel } from './support/harness.js';
import { assignmentsIn, inventoryOf, newKeys, ordersIn, testVault } from './support/license-keys.js';
import { appendProduct, orderLine, productCreated, productFields } from './support/orders.js';

const SEALED = /v1\.[0-9a-f]{8}\./;

interface LogRow {
  position: string;
  event_id: string;
  stream: string;
  type: string;
  actor_id: string;
  correlation_id: string;
  order_id: string | null;
  data: unknown;
}

describe('audit-log projector', () => {
  const { env } = useRunningReadModel();
  const vault = testVault();
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString();

  const logRows = async (schema = 'public') =>
    (
      await sql<LogRow>`
        SELECT position, event_id, stream, type, actor_id, correlation_id, order_id, data
          FROM ${sql.table(`${schema}.audit_log`)} ORDER BY position`.execute(env.db)
    ).rows;
  const productRows = async (schema = 'public') =>
    (
      await sql<{ product_id: string; position: string }>`
        SELECT product_id, position FROM ${sql.table(`${schema}.audit_log_products`)}
         ORDER BY position, product_id`.execute(env.db)
    ).rows;

  describe('when a product gets keys and an order is delivered', () => {
    const productId = randomUUID();
    const keys = newKeys(vault, 2);
    let orderId = '';

    beforeAll(async () => {
      await appendProduct(env.store, productId, productCreated(productId, productFields(), at(0)));
      const inventory = inventoryOf(env.store, productId);
      await inventory.add(keys, at(1));
      const line = orderLine('Windows 11 Pro', 1, '199.00', productId);
      const orders = ordersIn(env.store);
      const placed = await orders.place({ lines: [line], now: at(2) });
      orderId = placed.orderId;
      const asked = await inventory.request(orderId, line.lineId, 1, at(3));
      const [assigned] = assignmentsIn(asked.events);
      const recorded = await orders.recordKeys(orderId, line.lineId, assigned?.keys ?? [], at(4));
      expect(
        await waitForProjections(env.pool, recorded.position ?? '', {
          projectors: ['audit-log'],
          timeoutMs: 10_000,
        }),
      ).toBe(true);
    });

    it('writes one row per event of the log, in its positions', async () => {
      const log = await readAllEvents(env.store);
      expect(
        (await logRows()).map(({ position, event_id, stream, type }) => ({
          position,
          event_id,
          stream,
          type,
        })),
      ).toEqual(
        log.map((event) => ({
          position: event.position,
          event_id: event.id,
          stream: event.streamId,
          type: event.type,
        })),
      );
    });

    it('says which order each event concerns: the order stream and the inventory events that name it', async () => {
      const rows = await logRows();
      expect(
        rows.filter((row) => row.order_id === orderId).map((row) => `${row.stream} ${row.type}`),
      ).toEqual([
        `${orderStream(orderId)} OrderCaptured`,
        `${licenseKeysStream(productId)} LicenceKeysRequested`,
        `${licenseKeysStream(productId)} LicenceKeysAssigned`,
        `${orderStream(orderId)} OrderLicenceKeysAssigned`,
        `${orderStream(orderId)} OrderFulfilled`,
      ]);
      expect(rows.find((row) => row.type === 'LicenceKeyAdded')?.order_id).toBeNull();
    });

    it('says which products each event concerns, an order capture included', async () => {
      const rows = await logRows();
      const positions = new Set(
        (await productRows()).filter((row) => row.product_id === productId).map((row) => row.position),
      );
      expect(rows.filter((row) => positions.has(row.position)).map((row) => row.type)).toEqual([
        'ProductCreated',
        'LicenceKeyAdded',
        'LicenceKeyAdded',
        'LicenceKeyStockLow',
        'OrderCaptured',
        'LicenceKeysRequested',
        'LicenceKeysAssigned',
      ]);
    });

    it('withholds every key: neither sealed nor clear, not even its last characters', async () => {
      const text = JSON.stringify(await logRows());
      expect(text).not.toMatch(SEALED);
      for (const key of keys) {
        expect(text).not.toContain(key.text);
        expect(text).not.toContain(key.text.slice(-4));
      }
      const assigned = (await logRows()).find((row) => row.type === 'OrderLicenceKeysAssigned');
      expect(assigned?.data).toMatchObject({ keys: [{ key: WITHHELD_KEY }] });
    });

    it('writes nothing twice when a batch is applied again', async () => {
      const before = { log: await logRows(), products: await productRows() };
      await env.db
        .transaction()
        .execute((trx) =>
          auditLogProjector.apply(trx, [], { schema: 'public', log: recordingLogger().logger }),
        );
      const events = await readAllEvents(env.store);
      await env.db
        .transaction()
        .execute((trx) =>
          auditLogProjector.apply(trx, events, { schema: 'public', log: recordingLogger().logger }),
        );
      expect({ log: await logRows(), products: await productRows() }).toEqual(before);
    });
  });
});

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { licenseKeysStream, orderStream, productStream } from '@licensestore/domain';
import type { Mismatch } from '@licensestore/domain/audit-verify';
import { silentLogger } from '@licensestore/platform/logging';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadata } from '../../test/support/catalogue.js';
import { headPosition, openTestReadModel, startRunner } from '../../test/support/harness.js';
import { deliveryHistory, testVault } from '../../test/support/license-keys.js';
import { appendHistory, statusChanged, storeHistory } from '../../test/support/orders.js';
import { allProjectors } from '../projectors.js';

import { reportText } from './report-text.js';
import { VerificationRunningError, type VerifyOptions, verifyReadModels } from './verify.js';

type Env = Awaited<ReturnType<typeof openTestReadModel>>;
const ROOT = new URL('../../..', import.meta.url).pathname;
const PROJECTOR_NAMES = allProjectors.map((projector) => projector.name);

/** Runs the live projectors until every checkpoint has reached the end of the log, then stops them. */
async function projectLive(env: Env) {
  const runner = startRunner({ ...env, maxBatch: 7 });
  try {
    const reached = await waitForProjections(env.pool, await headPosition(env), {
      projectors: PROJECTOR_NAMES,
      timeoutMs: 20_000,
    });
    expect(reached).toBe(true);
  } finally {
    await runner.stop();
  }
}

const verify = (env: Env, options: Partial<VerifyOptions> = {}) =>
  verifyReadModels({ db: env.db, pool: env.pool, store: env.store, log: silentLogger, ...options });

/**
 * How each table is tampered with: a column changed on its first row (in key order), its second row deleted, a
 * copy of its third inserted under a new key (unique columns changed too); and the streams behind a row.
 */
const TAMPERING: Array<{
  table: string;
  key: string;
  set: string;
  extra: Record<string, unknown>;
  streams: (row: Record<string, unknown>) => string[];
}> = [
  {
    table: 'products',
    key: 'id',
    set: `name = name || ' (edited)'`,
    extra: { id: '00000000-0000-4000-8000-000000000001' },
    streams: (row) => [productStream(String(row.id))],
  },
  {
    table: 'orders',
    key: 'id',
    set: `status = status || '-forged'`,
    extra: { id: '00000000-0000-4000-8000-000000000002', paypal_order_id: 'PAYPAL-FORGED' },
    streams: (row) => [orderStream(String(row.id))],
  },
  {
    table: 'order_items',
    key: 'id',
    set: 'quantity = quantity + 1',
    extra: { id: 'forged:line', line_id: 'forged' },
    streams: (row) => [orderStream(String(row.order_id))],
  },
  {
    table: 'customers',
    key: 'email_key',
    set: 'order_count = order_count + 1',
    extra: { email_key: 'forged@example.com' },
    streams: () => [],
  },
  {
    table: 'customer_orders',
    key: 'order_id',
    set: 'total = total + 1',
    extra: { order_id: '00000000-0000-4000-8000-000000000003' },
    streams: (row) => [orderStream(String(row.order_id))],
  },
  {
    table: 'dashboard_products',
    key: 'id',
    set: 'featured = NOT featured',
    extra: { id: '00000000-0000-4000-8000-000000000004' },
    streams: (row) => [productStream(String(row.id))],
  },
  {
    table: 'dashboard_orders',
    key: 'id',
    set: `status = status || '-forged'`,
    extra: { id: '00000000-0000-4000-8000-000000000005' },
    streams: (row) => [orderStream(String(row.id))],
  },
  {
    table: 'dashboard_customers',
    key: 'email_key',
    set: `email_key = email_key || '.forged'`,
    extra: { email_key: 'forged@example.org' },
    streams: () => [],
  },
  {
    table: 'dashboard_license_keys',
    key: 'id',
    set: `status = CASE status WHEN 'available' THEN 'assigned' ELSE 'available' END`,
    extra: { id: '00000000-0000-4000-8000-000000000006' },
    streams: () => [],
  },
  {
    table: 'license_keys',
    key: 'id',
    set: `status = CASE status WHEN 'available' THEN 'assigned' ELSE 'available' END`,
    extra: { id: '00000000-0000-4000-8000-000000000007', fingerprint: 'forged' },
    streams: (row) => [licenseKeysStream(String(row.product_id)), orderStream(String(row.order_id))],
  },
  {
    table: 'license_key_stock',
    key: 'product_id',
    set: 'available = available + 5',
    extra: { product_id: '00000000-0000-4000-8000-000000000008' },
    streams: (row) => [licenseKeysStream(String(row.product_id))],
  },
];

async function rowAt(env: Env, table: string, key: string, offset: number) {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT to_jsonb(t) AS row FROM ${sql.table(table)} t ORDER BY ${sql.ref(key)} OFFSET ${offset} LIMIT 1`.execute(
    env.db,
  );
  const found = rows[0]?.row as Record<string, unknown> | undefined;
  if (!found) throw new Error(`${table} has no row at ${offset}`);
  return found;
}

describe('verifying the read models against the log', () => {
  let env: Env;

  beforeAll(async () => {
    env = await openTestReadModel();
    await appendHistory(env.store, storeHistory({ seed: 8, products: 6, orders: 60 }));
    await appendHistory(env.store, deliveryHistory({ seed: 8, products: 3, steps: 120, vault: testVault() }));
    await projectLive(env);
  });
  afterAll(() => env.close());

  describe('when the live models follow from the log', () => {
    it('passes, every table compared with as many rows on both sides, and reports its progress', async () => {
      const phases = new Set<string>();
      let replayed = 0;
      const report = await verify(env, {
        batchSize: 50,
        onProgress: (progress) => {
          phases.add(progress.phase);
          if (progress.phase === 'replaying') replayed = progress.done;
        },
      });
      expect(report.passed).toBe(true);
      expect(report.mismatches).toEqual([]);
      expect(report.tables.map((table) => table.table).sort()).toEqual(
        allProjectors.flatMap((projector) => projector.tables).sort(),
      );
      for (const table of report.tables) {
        expect(table.liveRows, table.table).toBeGreaterThan(0);
        expect(table.replayedRows, table.table).toBe(table.liveRows);
      }
      expect(replayed).toBe(report.events);
      expect(phases).toEqual(new Set(['replaying', 'comparing']));
      const { rows } = await sql<{ schema: string }>`
        SELECT nspname AS schema FROM pg_namespace WHERE nspname LIKE 'verify\\_%'`.execute(env.db);
      expect(rows).toEqual([]);
    });

    it('compares a live model that moved past the replay at its own checkpoint, the shadow brought level', async () => {
      const { rows } = await sql<{ id: string }>`SELECT id FROM orders ORDER BY id LIMIT 1`.execute(env.db);
      const orderId = (rows[0] as { id: string }).id;
      let moved = false;
      const report = await verify(env, {
        onProgress: async (progress) => {
          if (progress.phase !== 'comparing' || moved) return;
          moved = true;
          const from = (await env.db
            .selectFrom('orders')
            .select('status')
            .where('id', '=', orderId)
            .executeTakeFirstOrThrow()) as { status: 'pending' };
          await env.store.append(
            orderStream(orderId),
            [{ ...statusChanged(orderId, from.status, 'completed', new Date().toISOString()), metadata }],
            'any',
          );
          await projectLive(env);
        },
      });
      expect(report.passed).toBe(true);
      for (const projector of report.projectors) {
        expect(projector.position).toBe(await headPosition(env));
        expect(String(projector.position) > String(report.position)).toBe(true);
        expect(projector.eventsAfterReplay).toBe(1);
      }
    });

    it('refuses a second verification while one runs', async () => {
      let second: Promise<unknown> | undefined;
      await verify(env, {
        onProgress: () => {
          second ??= verify(env).then(
            () => 'ran',
            (error: unknown) => error,
          );
        },
      });
      expect(await second).toBeInstanceOf(VerificationRunningError);
    });

    it('passes, and reports the events of the log that do not read, which live and replay both passed', async () => {
      const id = '00000000-0000-4000-8000-00000000000a';
      const bad = await env.store.append(
        productStream(id),
        [{ type: 'ProductDeleted', data: { productId: id, deletedAt: 'yesterday' }, metadata }],
        'no_stream',
      );
      await env.store.append(
        productStream(id),
        [
          {
            type: 'ProductDeleted',
            data: { productId: id, deletedAt: '2026-03-01T09:00:00.000Z' },
            metadata,
          },
        ],
        0n,
      );
      await projectLive(env);
      const report = await verify(env);
      expect(report.passed).toBe(true);
      expect(report.unreadable).toEqual([
        {
          stream: productStream(id),
          type: 'ProductDeleted',
          position: bad.position,
          at: expect.any(String),
          reason: expect.stringContaining('data.deletedAt'),
        },
      ]);
      expect(reportText(report)).toContain(
        `1 event of the log does not read; every projector passed it (parked):\n    ${report.unreadable?.[0]?.at}  ${bad.position}  ${productStream(id)}  ProductDeleted: data.deletedAt`,
      );
    });
  });

  describe('when live rows were tampered with in every table', () => {
    const tampered = new Map<
      string,
      { changed: Record<string, unknown>; deleted: Record<string, unknown> }
    >();
    let mismatches: Mismatch[];
    let report: Awaited<ReturnType<typeof verify>>;

    beforeAll(async () => {
      for (const { table, key, set, extra } of TAMPERING) {
        const changed = await rowAt(env, table, key, 0);
        const deleted = await rowAt(env, table, key, 1);
        const copied = await rowAt(env, table, key, 2);
        tampered.set(table, { changed, deleted });
        await sql`UPDATE ${sql.table(table)} SET ${sql.raw(set)} WHERE ${sql.ref(key)}::text = ${String(changed[key])}`.execute(
          env.db,
        );
        await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(key)}::text = ${String(deleted[key])}`.execute(
          env.db,
        );
        await sql`
          INSERT INTO ${sql.table(table)}
          SELECT * FROM jsonb_populate_record(NULL::${sql.table(table)}, ${JSON.stringify({ ...copied, ...extra })}::jsonb)`.execute(
          env.db,
        );
      }
      await sql`UPDATE dashboard_stats SET revenue = revenue - 10`.execute(env.db);
      report = await verify(env);
      mismatches = report.mismatches;
    });

    it('fails, and counts one missing, one extra and one different row per table', () => {
      expect(report.passed).toBe(false);
      expect(report.unshownMismatches).toBe(0);
      for (const { table } of TAMPERING) {
        const counts = report.tables.find((candidate) => candidate.table === table);
        // Changing the key of dashboard_customers' only column turns the changed row into one missing, one extra.
        const expected =
          table === 'dashboard_customers'
            ? { missing: 2, extra: 2, different: 0 }
            : { missing: 1, extra: 1, different: 1 };
        expect(counts, table).toMatchObject(expected);
      }
      expect(report.tables.find((table) => table.table === 'dashboard_stats')).toMatchObject({
        missing: 0,
        extra: 0,
        different: 1,
      });
    });

    for (const { table, key, set, extra, streams } of TAMPERING) {
      it(`reports ${table}: the changed column, the deleted row, the forged row, each with the events behind it`, () => {
        const { changed, deleted } = tampered.get(table) as {
          changed: Record<string, unknown>;
          deleted: Record<string, unknown>;
        };
        const of = (kind: Mismatch['kind'], keyValue: unknown) =>
          mismatches.find(
            (mismatch) =>
              mismatch.table === table && mismatch.kind === kind && mismatch.key[key] === keyValue,
          );
        const missing = of('missing', deleted[key]);
        expect(missing?.replayed).toMatchObject({ [key]: deleted[key] });
        const forged = of('extra', extra[key]);
        expect(forged?.live).toMatchObject(extra);
        expect(forged?.events).toEqual([]);
        if (table !== 'dashboard_customers') {
          const different = of('different', changed[key]);
          expect(different?.columns).toEqual([set.split(' ')[0]]);
          expect(different?.events.length).toBeGreaterThan(0);
        }
        const expectedStreams = streams(deleted);
        if (expectedStreams.length > 0) {
          expect(missing?.events.length).toBeGreaterThan(0);
          for (const event of missing?.events ?? []) expect(expectedStreams).toContain(event.stream);
        }
      });
    }

    it('shows the order events behind a customer row, and the whole log behind the counters', () => {
      const customer = mismatches.find(
        (mismatch) => mismatch.table === 'customers' && mismatch.kind === 'missing',
      );
      expect(customer?.events.some((event) => event.type === 'OrderCaptured')).toBe(true);
      for (const event of customer?.events ?? []) expect(event.stream).toMatch(/^order-/);
      const stats = mismatches.find((mismatch) => mismatch.table === 'dashboard_stats');
      expect(stats).toMatchObject({ kind: 'different', columns: ['revenue'], behind: 'whole-log' });
    });

    it('names the events by type, position and time', () => {
      const order = mismatches.find(
        (mismatch) => mismatch.table === 'orders' && mismatch.kind === 'different',
      );
      expect(order?.events[0]).toMatchObject({
        type: 'OrderCaptured',
        stream: orderStream(String(order?.key.id)),
      });
      expect(order?.events[0]?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
      const positions = order?.events.map((event) => event.position) ?? [];
      expect(positions).toEqual([...positions].sort());
    });

    it('exits 1 from the command line, printing the summary and the mismatches', async () => {
      const run = promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'projections/src/audit/verify-cli.ts'],
        {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: env.url, LOG_LEVEL: 'warn' },
        },
      );
      const failure = (await run.then(
        () => null,
        (error: unknown) => error,
      )) as { code: number; stdout: string } | null;
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toMatch(
        /projector\s+\| table\s+\| rows live \| rows replayed \| missing \| extra \| different/,
      );
      expect(failure?.stdout).toContain('35 rows differ');
      expect(failure?.stdout).toMatch(
        /orders\/orders id=\S+: one column differs\n {4}status: live "\w+-forged", replayed "\w+"/,
      );
      expect(failure?.stdout).toMatch(/OrderCaptured/);
    });
  });
});

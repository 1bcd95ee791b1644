import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditLogProjector } from '../src/audit-log/projector.js';
import { productsProjector } from '../src/products/projector.js';
import { rebuildProjector, rebuildProjectors } from '../src/rebuild.js';
import {
  appendInBulk,
  catalogueHistory,
  expectedProducts,
  readProducts,
  takeEvents,
} from './support/catalogue.js';
import {
  expectProductsOfTheLog,
  headPosition,
  readAllEvents,
  recordingLogger,
  startRunner,
  type TestReadModel,
  useTestReadModel,
} from './support/harness.js';

const tableOid = async (env: TestReadModel) =>
  (await sql<{ oid: number }>`SELECT 'public.products'::regclass::oid AS oid`.execute(env.db)).rows[0]?.oid;

describe('rebuild', () => {
  const env = useTestReadModel();

  describe('while a live runner keeps projecting and events keep arriving', () => {
    it('swaps in identical rows, and the runner carries on from the new checkpoint', async () => {
      const history = catalogueHistory({ products: 800, events: 14_000, seed: 11 });
      await appendInBulk(env.pool, takeEvents(history, 12_000), { eventsPerTransaction: 3000 });
      const runnerLog = recordingLogger();
      const runner = startRunner({ ...env, logger: runnerLog.logger });
      try {
        const caughtUp = await headPosition(env);
        expect(
          await waitForProjections(env.pool, caughtUp, { projectors: ['products'], timeoutMs: 20_000 }),
        ).toBe(true);
        const oidBefore = await tableOid(env);

        // The same history continues while the rebuild runs, and after it.
        const appending = appendInBulk(env.pool, takeEvents(history, 1000), {
          eventsPerTransaction: 20,
          connections: 1,
        });
        const result = await rebuildProjector({
          db: env.db,
          pool: env.pool,
          store: env.store,
          projector: productsProjector,
          log: recordingLogger().logger,
          batchSize: 1000,
        });
        await appending;
        const beforeLastAppends = await readProducts(env.db);
        await appendInBulk(env.pool, history, { eventsPerTransaction: 50, connections: 1 });

        expect(result?.events).toBeGreaterThanOrEqual(12_000);
        expect(await tableOid(env)).not.toBe(oidBefore);
        const head = await headPosition(env);
        expect(
          await waitForProjections(env.pool, head, { projectors: ['products'], timeoutMs: 20_000 }),
        ).toBe(true);
        const after = await readProducts(env.db);
        expect(after).toEqual(expectedProducts(await readAllEvents(env.store)));
        expect(after).not.toEqual(beforeLastAppends);
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'rebuild_products'`.execute(env.db);
        expect(rows[0]?.n).toBe(0);
      } finally {
        await runner.stop();
      }
      expect(runnerLog.lines.filter((line) => line.level === 'error')).toEqual([]);
    });
  });

  describe('when the stored projector version differs from the code', () => {
    it('rebuilds at start, then follows', async () => {
      await sql`UPDATE projection_checkpoints SET version = 0 WHERE name = 'products'`.execute(env.db);
      const oidBefore = await tableOid(env);
      const log = recordingLogger();
      const runner = startRunner({ ...env, logger: log.logger });
      try {
        await log.waitFor('rebuild swapped in', 20_000);
        expect(
          await waitForProjections(env.pool, await headPosition(env), {
            projectors: ['products'],
            timeoutMs: 20_000,
          }),
        ).toBe(true);
      } finally {
        await runner.stop();
      }
      expect(await tableOid(env)).not.toBe(oidBefore);
      const stored = await env.db
        .selectFrom('projection_checkpoints')
        .select('version')
        .where('name', '=', 'products')
        .executeTakeFirst();
      expect(stored?.version).toBe(productsProjector.version);
      await expectProductsOfTheLog(env);
    });
  });

  describe('of several projectors in one pass', () => {
    it('swaps in each one complete, with its own checkpoint and no shadow left', async () => {
      const auditOid = async () =>
        (await sql<{ oid: number }>`SELECT 'public.audit_log'::regclass::oid AS oid`.execute(env.db)).rows[0]
          ?.oid;
      const [productsBefore, auditBefore] = [await tableOid(env), await auditOid()];
      const results = await rebuildProjectors({
        db: env.db,
        pool: env.pool,
        store: env.store,
        projectors: [productsProjector, auditLogProjector],
        log: recordingLogger().logger,
        batchSize: 700,
      });
      const events = await readAllEvents(env.store);
      const head = events.at(-1)?.position;
      expect(results.map(({ projector, events, position }) => ({ projector, events, position }))).toEqual([
        { projector: 'products', events: events.length, position: head },
        { projector: 'audit-log', events: events.length, position: head },
      ]);
      expect(await tableOid(env)).not.toBe(productsBefore);
      expect(await auditOid()).not.toBe(auditBefore);
      expect(await readProducts(env.db)).toEqual(expectedProducts(events));
      const { rows } = await sql<{ logged: number; shadows: number; checkpoints: string[] }>`
        SELECT (SELECT count(*)::int FROM audit_log) AS logged,
               (SELECT count(*)::int FROM pg_namespace WHERE nspname LIKE 'rebuild\_%') AS shadows,
               (SELECT array_agg(DISTINCT position) FROM projection_checkpoints
                 WHERE name IN ('products', 'audit-log')) AS checkpoints`.execute(env.db);
      expect(rows[0]).toEqual({ logged: events.length, shadows: 0, checkpoints: [head] });
    });
  });

  describe('from the command line', () => {
    it('npm run rebuild -- products rebuilds and reports events/s', async () => {
      const oidBefore = await tableOid(env);
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'rebuild', '--', 'products'], {
        cwd: new URL('../..', import.meta.url).pathname,
        env: { ...process.env, DATABASE_URL: env.url, LOG_LEVEL: 'warn' },
      });
      expect(stdout).toMatch(/products: \d+ events in \d+ ms \(\d+ events\/s\)/);
      expect(await tableOid(env)).not.toBe(oidBefore);
      await expectProductsOfTheLog(env);
    });

    it('refuses an unknown projector', async () => {
      const run = promisify(execFile)('npx', ['tsx', 'projections/src/cli.ts', 'rebuild', 'nope'], {
        cwd: new URL('../..', import.meta.url).pathname,
        env: { ...process.env, DATABASE_URL: env.url },
      });
      await expect(run).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('unknown projector "nope"'),
      });
    });
  });
});

import { randomUUID } from 'node:crypto';
import type { VerificationView } from '@licensestore/domain/audit-verify';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { silentLogger } from '@licensestore/platform/logging';
import { startProjections } from '@licensestore/projections';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appendProduct, productCreated, productFields } from '../../../../projections/test/support/orders.js';
import { testRedisUrl } from '../../../../test/support/database.js';
import { callApi, startTestApi, type TestApi } from '../../test/support/api.js';

const FINISHED_WITHIN_MS = 30_000;

describe('Verifying the read models from the back office', () => {
  let api: TestApi;
  let stopProjections: () => Promise<void>;
  let database: ReturnType<typeof openDatabase>;
  let auditor: string;

  const start = () => callApi(api.url, 'POST', '/api/audit/verifications', { cookie: auditor });
  const read = async (id: string) => {
    const response = await callApi(api.url, 'GET', `/api/audit/verifications/${id}`, { cookie: auditor });
    expect(response.status).toBe(200);
    return (await response.json()) as VerificationView;
  };
  /** Polls the run as the back office does until the projections role has finished it. */
  const finished = (id: string) =>
    vi.waitFor(
      async () => {
        const run = await read(id);
        if (run.status === 'queued' || run.status === 'running')
          throw new Error(`run ${id} still ${run.status}`);
        return run;
      },
      { timeout: FINISHED_WITHIN_MS, interval: 100 },
    );

  beforeAll(async () => {
    api = await startTestApi();
    database = openDatabase(api.databaseUrl);
    const store = await openEventStore({ databaseUrl: api.databaseUrl });
    for (const name of ['Windows 11 Pro', 'Office 2024', 'Norton 360']) {
      const id = randomUUID();
      await appendProduct(store, id, productCreated(id, productFields({ name }), new Date().toISOString()));
    }
    await store.close();
    stopProjections = await startProjections({
      databaseUrl: api.databaseUrl,
      logger: silentLogger,
      // The API namespaces its queue under its Redis key prefix; its projections role shares it.
      backOfficeJobs: { redisUrl: testRedisUrl(), prefix: `${api.redisKeyPrefix}bull` },
    });
    auditor = await api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
  });
  afterAll(async () => {
    await stopProjections?.();
    await database?.close();
    await api?.stop();
  });

  it('is refused to anyone outside the back office', async () => {
    expect((await callApi(api.url, 'POST', '/api/audit/verifications')).status).toBe(401);
    const customer = await api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
    expect((await callApi(api.url, 'GET', '/api/audit/verifications', { cookie: customer })).status).toBe(
      403,
    );
  });

  it('runs in the projections role, an auditor following its progress, and passes when the models follow from the log', async () => {
    const response = await start();
    expect(response.status).toBe(202);
    const queued = (await response.json()) as VerificationView;
    expect(response.headers.get('location')).toBe(`/api/audit/verifications/${queued.id}`);
    expect(queued).toMatchObject({ status: 'queued', report: null });

    const run = await finished(queued.id);
    expect(run.status).toBe('passed');
    expect(run.startedAt).not.toBeNull();
    expect(run.finishedAt).not.toBeNull();
    expect(run.report?.events).toBe(3);
    expect(run.report?.tables.find((table) => table.table === 'products')).toMatchObject({
      liveRows: 3,
      replayedRows: 3,
      missing: 0,
      extra: 0,
      different: 0,
    });
    // The last progress the projections role wrote: the comparison, table by table.
    expect(run.progress).toMatchObject({ phase: 'comparing', total: run.report?.tables.length });
  });

  it('lists the recent runs, newest first', async () => {
    const response = await callApi(api.url, 'GET', '/api/audit/verifications', { cookie: auditor });
    const runs = (await response.json()) as VerificationView[];
    expect(runs[0]?.status).toBe('passed');
  });

  it('fails, naming the row and the events behind it, when a live row was altered', async () => {
    const { rows } = await sql<{ id: string }>`
      UPDATE products SET regular_price = 1.00
       WHERE id = (SELECT id FROM products ORDER BY id LIMIT 1) RETURNING id`.execute(database.db);
    const productId = rows[0]?.id;
    const run = await finished(((await (await start()).json()) as VerificationView).id);
    expect(run.status).toBe('failed');
    expect(run.report?.mismatches).toEqual([
      expect.objectContaining({
        table: 'products',
        kind: 'different',
        key: { id: productId },
        columns: ['regular_price'],
        events: [expect.objectContaining({ type: 'ProductCreated', stream: `product-${productId}` })],
      }),
    ]);
  });

  it('joins the run in progress rather than starting a second', async () => {
    const running = randomUUID();
    await sql`INSERT INTO audit_verifications (id, status, requested_by) VALUES (${running}, 'running', 'ada')`.execute(
      database.db,
    );
    const response = await start();
    expect(response.status).toBe(200);
    expect(((await response.json()) as VerificationView).id).toBe(running);
  });
});

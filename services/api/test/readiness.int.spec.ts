import { randomUUID } from 'node:crypto';
import type { EventStore } from '@licensestore/domain/events';
import { type DatabaseHandle, openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, startProjections } from '../../../projections/src/index.js';
import { createTestDatabase } from '../../../test/support/database.js';
import type { Readiness } from '../src/health/readiness.js';
import { startTestApi, type TestApi } from './support/api.js';

describe('GET /readyz', () => {
  let databaseUrl: string;
  let api: TestApi;
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let stopProjections: (() => Promise<void>) | undefined;

  const ready = async () => {
    const response = await fetch(`${api.url}/readyz`);
    return {
      status: response.status,
      cache: response.headers.get('cache-control'),
      body: (await response.json()) as { status: string; checks: Readiness['checks'] },
    };
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    api = await startTestApi({ databaseUrl });
    database = openDatabase(databaseUrl);
    eventStore = await openEventStore({ databaseUrl });
  });
  afterAll(async () => {
    await stopProjections?.();
    await api?.stop();
    await eventStore?.close();
    await database?.close();
  });

  it('is not ready before the projections have run, and says so without caching', async () => {
    const answer = await ready();
    expect(answer.status).toBe(503);
    expect(answer.cache).toBe('no-store');
    expect(answer.body).toMatchObject({
      status: 'not ready',
      checks: { postgres: 'ok', redis: 'ok', eventStore: 'ok' },
    });
    expect(Object.values(answer.body.checks.projections)).not.toContain('ok');
  });

  it('is ready once every projector has caught up with the log', async () => {
    stopProjections = await startProjections({ databaseUrl, logger: silentLogger });
    await expect.poll(async () => (await ready()).status, { timeout: 20_000, interval: 200 }).toBe(200);
    const { body } = await ready();
    expect(body.status).toBe('ready');
    expect(new Set(Object.values(body.checks.projections))).toEqual(new Set(['ok']));
    expect(Object.keys(body.checks.projections)).toContain('orders');
  });

  it('is not ready while an event older than 5 s waits to be projected', async () => {
    await stopProjections?.();
    stopProjections = undefined;
    const productId = randomUUID();
    await eventStore.append(
      `product-${productId}`,
      [
        {
          type: 'ProductDeleted',
          data: { productId, deletedAt: new Date().toISOString() },
          metadata: {
            actor: { type: 'system', id: 'test' },
            correlationId: productId,
            causationId: productId,
          },
        },
      ],
      'any',
    );
    // As if the projections had been down for 10 s since it was appended.
    await sql`UPDATE event_store.events SET created_at = now() - interval '10 seconds'
               WHERE stream_id = ${`product-${productId}`}`.execute(database.db);
    const answer = await ready();
    expect(answer.status).toBe(503);
    expect(answer.body.checks.projections.products).toMatch(/^behind by 1\d s$/);

    stopProjections = await startProjections({ databaseUrl, logger: silentLogger });
    await expect.poll(async () => (await ready()).status, { timeout: 20_000, interval: 200 }).toBe(200);
  });
});

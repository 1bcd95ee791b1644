import { silentLogger } from '@licensestore/platform/logging';
import {
  PROJECTION_CHECKPOINT_CHANNEL,
  parseCheckpointNotification,
  waitForProjections,
} from '@licensestore/platform/readmodel';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { productsProjector } from '../src/products/projector.js';
import { appendInBulk, catalogueHistory, expectedProducts, readProducts } from './support/catalogue.js';
import { headPosition, readAllEvents, useTestReadModel } from './support/harness.js';
import { spawnProjections } from './support/process.js';

const EVENTS = 20_000;
const BATCH = 500;

/** Kills the role process after its `n`th committed checkpoint (the moment the notification arrives). */
async function killAfterCheckpoints(url: string, child: ReturnType<typeof spawnProjections>, n: number) {
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  try {
    await listener.query(`LISTEN ${PROJECTION_CHECKPOINT_CHANNEL}`);
    let seen = 0;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fewer than ${n} checkpoints within 30 s`)), 30_000);
      listener.on('notification', (message) => {
        if (parseCheckpointNotification(message.payload ?? '')?.projector !== 'products') return;
        if (++seen < n) return;
        child.kill('SIGKILL');
        clearTimeout(timer);
        resolve();
      });
    });
  } finally {
    await listener.end();
  }
}

describe('the projections role killed with SIGKILL in the middle of catching up', () => {
  const env = useTestReadModel();

  it('resumes from its checkpoint and ends with exactly the rows of an uninterrupted run', async () => {
    expect(await appendInBulk(env.pool, catalogueHistory({ products: 2000, events: EVENTS, seed: 42 }))).toBe(
      EVENTS,
    );
    const events = await readAllEvents(env.store);
    const head = await headPosition(env);

    const first = spawnProjections(env.url, { PROJECTIONS_MAX_BATCH: String(BATCH) });
    await killAfterCheckpoints(env.url, first, 5);
    expect((await first.exited).signal).toBe('SIGKILL');

    const interrupted = await env.db
      .selectFrom('projection_checkpoints')
      .select('position')
      .where('name', '=', 'products')
      .executeTakeFirstOrThrow();
    // Killed after the checkpoint moved and before the end: a real mid-catch-up crash.
    expect(interrupted.position).not.toBeNull();
    expect(interrupted.position && interrupted.position < head).toBe(true);

    const second = spawnProjections(env.url, { PROJECTIONS_MAX_BATCH: String(BATCH) });
    try {
      await second.waitFor('active');
      expect(await waitForProjections(env.pool, head, { projectors: ['products'], timeoutMs: 30_000 })).toBe(
        true,
      );
    } finally {
      second.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
    }

    // Two references: the domain's own fold, and the projector applying the whole log in one go elsewhere.
    const resumed = await readProducts(env.db);
    expect(resumed).toEqual(expectedProducts(events));
    await sql`CREATE SCHEMA uninterrupted`.execute(env.db);
    await productsProjector.createTables(env.db, 'uninterrupted');
    await env.db
      .transaction()
      .execute((trx) => productsProjector.apply(trx, events, { schema: 'uninterrupted', log: silentLogger }));
    expect(resumed).toEqual(await readProducts(env.db, 'uninterrupted'));
  });
});

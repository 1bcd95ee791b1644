import { randomUUID } from 'node:crypto';
import { encodePosition } from '@licensestore/platform/eventstore';
import {
  formatCheckpointNotification,
  PROJECTION_CHECKPOINT_CHANNEL,
  waitForProjections,
} from '@licensestore/platform/readmodel';
import { describe, expect, it } from 'vitest';
import { useTestReadModel } from './support/harness.js';

/** What a runner does when a batch commits: move the checkpoint and notify, in one transaction. */
describe('waitForProjections', () => {
  const env = useTestReadModel();
  const at = (n: number) => encodePosition(BigInt(n), BigInt(n));

  const checkpoint = async (name: string, position: string) => {
    const client = await env.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO projection_checkpoints (name, position, version) VALUES ($1, $2, 1)
         ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = now()`,
        [name, position],
      );
      await client.query('SELECT pg_notify($1, $2)', [
        PROJECTION_CHECKPOINT_CHANNEL,
        formatCheckpointNotification(name, position),
      ]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };

  describe('when the checkpoint passes the position while waiting', () => {
    it('resolves true as soon as it is notified', async () => {
      const name = `p-${randomUUID()}`;
      await checkpoint(name, at(10));
      const started = performance.now();
      const waiting = waitForProjections(env.pool, at(20), { projectors: [name], timeoutMs: 5000 });
      let settled = false;
      void waiting.then(() => {
        settled = true;
      });
      await checkpoint(name, at(19));
      await checkpoint(name, at(20));
      expect(await waiting).toBe(true);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(settled).toBe(true);
    });
  });

  describe('when the checkpoint is already past the position', () => {
    it('resolves true from the table alone', async () => {
      const name = `p-${randomUUID()}`;
      await checkpoint(name, at(30));
      expect(await waitForProjections(env.pool, at(25), { projectors: [name], timeoutMs: 1000 })).toBe(true);
    });
  });

  describe('when the checkpoint never gets there', () => {
    it('resolves false after the timeout', async () => {
      const name = `p-${randomUUID()}`;
      await checkpoint(name, at(5));
      const started = performance.now();
      const waiting = waitForProjections(env.pool, at(6), { projectors: [name], timeoutMs: 300 });
      await checkpoint(name, at(5));
      expect(await waiting).toBe(false);
      expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    });

    it('resolves false for a projector that has no checkpoint at all', async () => {
      expect(
        await waitForProjections(env.pool, at(1), { projectors: [`p-${randomUUID()}`], timeoutMs: 100 }),
      ).toBe(false);
    });
  });

  describe('when waiting for several projectors', () => {
    it('resolves only once every one of them has passed', async () => {
      const [a, b] = [`p-${randomUUID()}`, `p-${randomUUID()}`];
      await checkpoint(a, at(1));
      await checkpoint(b, at(1));
      const waiting = waitForProjections(env.pool, at(50), { projectors: [a, b], timeoutMs: 5000 });
      const early = waitForProjections(env.pool, at(50), { projectors: [a, b], timeoutMs: 400 });
      await checkpoint(a, at(60));
      expect(await early).toBe(false);
      await checkpoint(b, at(50));
      expect(await waiting).toBe(true);
    });
  });

  describe('when many callers wait at once', () => {
    it('looks at the table for every projector any of them waits for', async () => {
      const names = Array.from({ length: 20 }, () => `p-${randomUUID()}`);
      for (const name of names) await checkpoint(name, at(200));
      const waits = names.map((name, i) =>
        waitForProjections(env.pool, at(100 + i), { projectors: [name], timeoutMs: 1000 }),
      );
      expect(await Promise.all(waits)).toEqual(Array(20).fill(true));
    });

    it('shares one listening connection and gives it back to the pool afterwards', async () => {
      const name = `p-${randomUUID()}`;
      await checkpoint(name, at(1));
      const waits = Array.from({ length: 20 }, (_, i) =>
        waitForProjections(env.pool, at(100 + i), { projectors: [name], timeoutMs: 5000 }),
      );
      await checkpoint(name, at(200));
      expect(await Promise.all(waits)).toEqual(Array(20).fill(true));
      const { rows } = await env.pool.query<{ listening: number }>(
        `SELECT count(*)::int AS listening FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'listen ${PROJECTION_CHECKPOINT_CHANNEL}'`,
      );
      expect(rows[0]?.listening).toBeLessThanOrEqual(1);
      expect(env.pool.totalCount).toBeLessThanOrEqual(2);
      expect(env.pool.idleCount).toBe(env.pool.totalCount);
      // Pooled clients go back clean, however many waits they served.
      for (let i = 0; i < 15; i++)
        await waitForProjections(env.pool, at(1), { projectors: [name], timeoutMs: 1000 });
      const client = await env.pool.connect();
      try {
        expect(client.listenerCount('notification')).toBe(0);
      } finally {
        client.release();
      }
    });
  });
});

import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterEach, describe, expect, it } from 'vitest';
import { startProjections } from '../src/main.js';
import { appendInBulk, catalogueHistory, takeEvents } from './support/catalogue.js';
import {
  expectProductsOfTheLog,
  headPosition,
  recordingLogger,
  useTestReadModel,
} from './support/harness.js';
import { type ProjectionsProcess, spawnProjections } from './support/process.js';

const LOCK_APPLICATION = 'licensestore-projections-lock';

describe('projections role with a hot standby', () => {
  const env = useTestReadModel();
  const children: ProjectionsProcess[] = [];
  const caughtUp = async () =>
    waitForProjections(env.pool, await headPosition(env), {
      projectors: ['products'],
      timeoutMs: 20_000,
    });
  /** Two processes on one store: the first holding the active lock, the second waiting for it. */
  const activeAndStandby = async () => {
    const first = spawnProjections(env.url);
    children.push(first);
    await first.waitFor('active');
    const second = spawnProjections(env.url);
    children.push(second);
    await second.waitFor('standing by');
    return [first, second] as const;
  };

  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.kill('SIGKILL');
      await child.exited;
    }
  });

  describe('when the active process is killed with SIGKILL', () => {
    it('the standby takes over and the read model stays exact', async () => {
      const history = catalogueHistory({ products: 300, events: 6000, seed: 21 });
      await appendInBulk(env.pool, takeEvents(history, 2000));
      const [first, second] = await activeAndStandby();
      expect(await caughtUp()).toBe(true);

      first.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      await second.waitFor('active', 15_000);
      await appendInBulk(env.pool, history);
      expect(await caughtUp()).toBe(true);
      await expectProductsOfTheLog(env);
    });
  });

  describe('when the active process is told to stop (SIGTERM)', () => {
    it('exits cleanly and releases the lock to the standby', async () => {
      const [first, second] = await activeAndStandby();

      first.kill('SIGTERM');
      await first.waitFor('stopped');
      expect(await first.exited).toEqual({ code: 0, signal: null });
      await second.waitFor('active', 15_000);

      second.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
    });
  });

  describe('in one process, when the active instance loses its lock connection', () => {
    it('stops projecting, stands by again, and the other instance takes over', async () => {
      const [logA, logB] = [recordingLogger(), recordingLogger()];
      const stopA = await startProjections({ databaseUrl: env.url, logger: logA.logger });
      await logA.waitFor('active');
      const stopB = await startProjections({ databaseUrl: env.url, logger: logB.logger });
      try {
        await logB.waitFor('standing by');
        const { rows } = await env.pool.query<{ terminated: boolean }>(
          `SELECT pg_terminate_backend(a.pid) AS terminated
             FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = $1 AND a.datname = current_database()`,
          [LOCK_APPLICATION],
        );
        expect(rows).toEqual([{ terminated: true }]);
        await logB.waitFor('active');
        await logA.waitFor('lost the active lock (its connection ended)');
        await logA.waitFor('standing by');

        const history = catalogueHistory({ products: 50, events: 500, seed: 99 });
        await appendInBulk(env.pool, history);
        expect(await caughtUp()).toBe(true);
        await expectProductsOfTheLog(env);
      } finally {
        await Promise.all([stopA(), stopB()]);
      }
    });
  });
});

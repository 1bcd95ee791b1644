import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@licensestore/platform/logging';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testRedisUrl } from '../../test/support/database.js';
import { defineProcessor } from './jobs/processor.js';
import { type RunningWorkers, startWorkers } from './main.js';
import { appendEvent, testSideEffects, workersTestEnvironment } from './testing/fixtures.js';
import { latch } from './testing/latch.js';

type Environment = Awaited<ReturnType<typeof workersTestEnvironment>>;

describe('Workers role', () => {
  let env: Environment;
  let workers: RunningWorkers | null = null;

  beforeEach(async () => {
    env = await workersTestEnvironment();
  });

  afterEach(async () => {
    await workers?.stop();
    workers = null;
    await env.close();
  });

  it('turns a recorded event into exactly one processed job', async () => {
    const processed: string[] = [];
    const { open: done, opened: finished } = latch();
    workers = await startWorkers({
      databaseUrl: env.databaseUrl,
      redisUrl: testRedisUrl(),
      queuePrefix: env.queues.prefix,
      logger: silentLogger,
      sideEffects: testSideEffects(),
      reactions: {
        OrderPaid: (event) => ({ queue: 'deliveries', name: 'deliver', data: event.data }),
      },
      processors: () => [
        defineProcessor({
          queue: 'deliveries',
          schema: z.object({ orderId: z.string() }),
          process: async ({ orderId }) => {
            processed.push(orderId);
            done();
          },
        }),
      ],
    });
    const orderId = randomUUID();
    await appendEvent(env.eventStore, 'OrderPaid', { orderId });
    await finished;
    await workers.stop();
    expect(processed).toEqual([orderId]);
    expect(await env.jobs.queue('deliveries').getJobCounts('completed')).toEqual({ completed: 1 });
  });

  describe('started from the command line', () => {
    it('shuts down cleanly on SIGTERM', async () => {
      const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
      const child = spawn(tsx, [fileURLToPath(new URL('./main.ts', import.meta.url))], {
        env: {
          ...process.env,
          DATABASE_URL: env.databaseUrl,
          REDIS_URL: testRedisUrl(),
          LICENSE_KEY_SECRET: randomBytes(32).toString('hex'),
          DATA_DIR: testSideEffects().mail.dataDir,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = once(child, 'exit');
      const messages: string[] = [];
      const active = new Promise<void>((resolve) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          messages.push((JSON.parse(line) as { msg: string }).msg);
          if (messages.at(-1) === 'reactor active') resolve();
        });
      });
      await active;
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(messages).toContain('workers role stopped');
    });
  });
});

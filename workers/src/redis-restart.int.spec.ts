import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orderDecider, orderStream, type PlacedOrder } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import { type Logger, silentLogger } from '@licensestore/platform/logging';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../scripts/stack/redis-server.js';
import {
  deliveriesByMessageId,
  startTestSmtpServer,
  type TestSmtpServer,
} from '../../test/support/smtp-server.js';
import { type RunningWorkers, startWorkers } from './main.js';
import { testSideEffects, workersTestEnvironment } from './testing/fixtures.js';
import { addKeys, createProduct, type LogWatch, placeOrder, watchLog } from './testing/store.js';
import { portOf, startTcpProxy } from './testing/tcp-proxy.js';

type Environment = Awaited<ReturnType<typeof workersTestEnvironment>>;

const orderIdOf = (event: { data: unknown }) => (event.data as { orderId: string }).orderId;

/** Both servers of a test take the same password, as the one kept in DATA_DIR/secrets. */
const PASSWORD = randomBytes(24).toString('base64url');

describe('Workers when Redis restarts mid-run', () => {
  let env: Environment;
  let smtp: TestSmtpServer;
  let log: LogWatch;
  let dir: string;
  let redis: RunningRedis;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let workers: RunningWorkers | null = null;

  beforeEach(async () => {
    env = await workersTestEnvironment();
    smtp = await startTestSmtpServer();
    await smtp.open();
    log = watchLog(env.eventStore);
    dir = await mkdtemp(join(tmpdir(), 'workers-redis-'));
    redis = await startRedisServer(join(dir, 'redis'), undefined, PASSWORD);
    proxy = await startTcpProxy(portOf(redis.url));
  });

  afterEach(async () => {
    await workers?.stop();
    workers = null;
    await log.close();
    await smtp.close();
    await proxy.close();
    await redis.stop();
    await env.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    { restart: 'with its data (append-only file)', dataDir: 'redis', rederives: false },
    { restart: 'without its data', dataDir: 'redis-empty', rederives: true },
  ])(
    '$restart: loses no job, and every order gets its keys and one e-mail',
    async ({ dataDir, rederives }) => {
      const warnings: string[] = [];
      const logger: Logger = { ...silentLogger, warn: (_fields, message) => warnings.push(message) };
      const sideEffects = testSideEffects({ mail: { ...testSideEffects().mail, smtpUrl: smtp.url } });
      workers = await startWorkers({
        databaseUrl: env.databaseUrl,
        redisUrl: `redis://:${PASSWORD}@127.0.0.1:${proxy.port}`,
        logger,
        sideEffects,
      });
      const productId = await createProduct(env.eventStore, 'Adobe Photoshop', 'Adobe Creative Cloud');
      await addKeys(env.eventStore, sideEffects.keyVault, productId, 40);

      // The mail server refuses for now, so when Redis goes down the delivery jobs are waiting to be retried.
      smtp.refuse();
      const before = await Promise.all(
        Array.from({ length: 20 }, () => placeOrder(env.eventStore, [{ productId }])),
      );
      await log.until('the first orders fulfilled', ({ ofType }) => ofType('OrderFulfilled').length === 20);
      await smtp.until('a refused delivery attempt', () => smtp.attempts() > 0);

      await redis.stop();
      redis = await startRedisServer(join(dir, dataDir), undefined, PASSWORD);
      proxy.retarget(portOf(redis.url));
      smtp.accept();
      const after = await Promise.all(
        Array.from({ length: 20 }, () => placeOrder(env.eventStore, [{ productId }])),
      );
      await log.until(
        'every order e-mailed',
        ({ ofType }) => new Set(ofType('DeliveryEmailSent').map(orderIdOf)).size === 40,
        60_000,
      );
      await workers.stop();
      workers = null;

      const orders = await Promise.all(
        [...before, ...after].map(
          async (orderId) =>
            (await loadStream(env.eventStore, orderStream(orderId), orderDecider)).state as PlacedOrder,
        ),
      );
      expect(orders.every((order) => order.status === 'completed')).toBe(true);
      const keys = orders.flatMap((order) =>
        Object.values(order.keys)
          .flat()
          .map((key) => key.keyId),
      );
      expect(new Set(keys).size).toBe(40);
      expect(log.ofType('DeliveryEmailSent')).toHaveLength(40);
      const deliveries = deliveriesByMessageId(smtp.received);
      expect(deliveries.size).toBe(40);
      expect([...deliveries.values()].every((count) => count === 1)).toBe(true);
      expect(
        warnings.includes('the job queue lacks jobs it was given; adding the unfinished ones again'),
      ).toBe(rederives);
    },
    90_000,
  );
});

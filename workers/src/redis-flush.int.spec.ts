import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testRedisUrl } from '../../test/support/database.js';
import { deliveriesByMessageId } from '../../test/support/smtp-server.js';
import { checkStoreInvariants } from '../../test/support/store-invariants.js';
import type { SideEffectSettings } from './processors/context.js';
import { openWorkersFixture, testSideEffects, type WorkersFixture } from './testing/fixtures.js';
import { addKeys, createProduct, placeOrder } from './testing/store.js';

const orderIdOf = (event: { data: unknown }) => (event.data as { orderId: string }).orderId;

describe('Workers after Redis lost all its data', () => {
  let fixture: WorkersFixture;
  let redis: Redis;
  let sideEffects: SideEffectSettings;

  /** The jobs Redis holds (in any state), by queue and id: the keys `<prefix>:<queue>:<name>.<event id>`. */
  const jobsInRedis = async () => {
    const prefix = `${fixture.env.queues.prefix}:`;
    const keys = await redis.keys(`${prefix}*`);
    return keys
      .map((key) => key.slice(prefix.length))
      .filter((key) => /^[a-z-]+:[a-z-]+\.[0-9a-f-]{36}$/.test(key))
      .sort();
  };
  const unfinishedIntents = async () => {
    const { rows } = await fixture.env.pool.query<{ job: string }>(
      `SELECT queue || ':' || job_id AS job FROM reactor_job_intents ORDER BY 1`,
    );
    return rows.map((row) => row.job);
  };

  beforeEach(async () => {
    fixture = await openWorkersFixture();
    await fixture.smtp.open();
    redis = new Redis(testRedisUrl());
    sideEffects = testSideEffects({ mail: { ...testSideEffects().mail, smtpUrl: fixture.smtp.url } });
  });

  afterEach(async () => {
    await redis.quit();
    await fixture.close();
  });

  it('adds again only the unfinished jobs, and every order still gets its keys and one e-mail', async () => {
    const { env, smtp, log } = fixture;
    await fixture.startWorkers(sideEffects);
    const productId = await createProduct(env.eventStore, 'Adobe Photoshop', 'Adobe Creative Cloud');
    await addKeys(env.eventStore, sideEffects.keyVault, productId, 12);

    // The mail server refuses, so the delivery e-mails are the unfinished work when Redis loses everything.
    smtp.refuse();
    await Promise.all(Array.from({ length: 12 }, () => placeOrder(env.eventStore, [{ productId }])));
    await log.until('every order fulfilled', ({ ofType }) => ofType('OrderFulfilled').length === 12);
    await log.until('every receipt issued', ({ ofType }) => ofType('OrderReceiptIssued').length === 12);
    await smtp.until('a refused delivery attempt', () => smtp.attempts() > 0);
    await fixture.stopWorkers();
    const unfinished = await unfinishedIntents();
    expect(unfinished).toHaveLength(12);
    expect(unfinished.every((job) => job.startsWith('send-delivery-email:'))).toBe(true);

    await redis.del(...(await redis.keys(`${env.queues.prefix}:*`)));
    smtp.accept();
    await fixture.startWorkers(sideEffects);
    await log.until(
      'every order e-mailed',
      ({ ofType }) => new Set(ofType('DeliveryEmailSent').map(orderIdOf)).size === 12,
    );
    await vi.waitFor(async () => expect(await unfinishedIntents()).toEqual([]), { timeout: 10_000 });
    await fixture.stopWorkers();

    // None of the finished jobs (keys assigned and recorded, receipts) came back; the e-mails did.
    expect(await jobsInRedis()).toEqual(unfinished);
    const invariants = await checkStoreInvariants(env.eventStore, deliveriesByMessageId(smtp.received));
    expect(invariants.problems).toEqual([]);
    expect(invariants.paidOrders).toBe(12);
    expect(invariants.keysAssigned).toBe(12);
  }, 90_000);
});

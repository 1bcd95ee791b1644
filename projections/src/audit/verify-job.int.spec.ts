import { randomUUID } from 'node:crypto';
import { AUDIT_VERIFY_JOB, AUDIT_VERIFY_QUEUE } from '@licensestore/domain/audit-verify';
import type { EventStore } from '@licensestore/domain/events';
import { openEventStore } from '@licensestore/platform/eventstore';
import { silentLogger } from '@licensestore/platform/logging';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testRedisUrl } from '../../../test/support/database.js';
import { consumeVerifications } from './verify-job.js';

describe('The verification queue, as the projections role takes it', () => {
  const connection = { url: testRedisUrl() };
  const prefix = `verify-job-${randomUUID()}`;
  let queue: Queue;
  let events: QueueEvents;
  let store: EventStore;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    store = await openEventStore({ databaseUrl });
    queue = new Queue(AUDIT_VERIFY_QUEUE, { connection, prefix });
    events = new QueueEvents(AUDIT_VERIFY_QUEUE, { connection, prefix });
    await events.waitUntilReady();
    stop = await consumeVerifications(
      { redisUrl: connection.url, prefix },
      { databaseUrl, eventStore: store, logger: silentLogger },
    );
  });
  afterAll(async () => {
    await stop?.();
    await Promise.all([queue?.close(), events?.close()]);
    await store?.close();
  });

  it('fails a job whose data does not parse, without retrying it', async () => {
    const job = await queue.add(AUDIT_VERIFY_JOB, { verificationId: 'not-a-run' }, { attempts: 3 });
    await expect(job.waitUntilFinished(events)).rejects.toThrow(/invalid data for audit-verify/);
    const failed = await queue.getJob(job.id as string);
    expect(failed?.attemptsMade).toBe(1);
    expect(await failed?.getState()).toBe('failed');
  });
});

import { randomUUID } from 'node:crypto';
import { RISK_WHAT_IF_JOB, RISK_WHAT_IF_QUEUE } from '@licensestore/domain';
import { AUDIT_VERIFY_JOB, AUDIT_VERIFY_QUEUE } from '@licensestore/domain/audit-verify';
import type { EventStore } from '@licensestore/domain/events';
import { openEventStore } from '@licensestore/platform/eventstore';
import { silentLogger } from '@licensestore/platform/logging';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testRedisUrl } from '../../test/support/database.js';
import { consumeVerifications } from './audit/verify-job.js';
import { consumeWhatIfs } from './risk/what-if.js';

describe.each([
  {
    queueName: AUDIT_VERIFY_QUEUE,
    jobName: AUDIT_VERIFY_JOB,
    consume: consumeVerifications,
    badData: { verificationId: 'not-a-run' },
  },
  {
    queueName: RISK_WHAT_IF_QUEUE,
    jobName: RISK_WHAT_IF_JOB,
    consume: consumeWhatIfs,
    badData: { draft: { holdAtOrAbove: 'lots' }, period: { from: 'last year' } },
  },
])('The $queueName queue, as the projections role takes it', ({ queueName, jobName, consume, badData }) => {
  const connection = { url: testRedisUrl() };
  const prefix = `${queueName}-${randomUUID()}`;
  let queue: Queue;
  let events: QueueEvents;
  let store: EventStore;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    store = await openEventStore({ databaseUrl });
    queue = new Queue(queueName, { connection, prefix });
    events = new QueueEvents(queueName, { connection, prefix });
    await events.waitUntilReady();
    stop = await consume(
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
    const job = await queue.add(jobName, badData, { attempts: 3 });
    await expect(job.waitUntilFinished(events)).rejects.toThrow(`invalid data for ${queueName}`);
    const failed = await queue.getJob(job.id as string);
    expect(failed?.attemptsMade).toBe(1);
    expect(await failed?.getState()).toBe('failed');
  });
});

/**
 * A workers instance in a process of its own that kills itself with SIGKILL (no finally, no clean-up, its BullMQ lock
 * and Postgres session left behind) at a chosen point of a job, for tests of a worker dying mid-job. It reads its
 * settings as JSON from KILLABLE_WORKERS (see KillableWorkersSettings) and prints 'ready' once it runs.
 */

import type { EventStore } from '@licensestore/domain/events';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { silentLogger } from '@licensestore/platform/logging';
import type { MailSettings } from '@licensestore/platform/mail';
import { createOrderAccess } from '@licensestore/platform/order-access';
import type { JobProcessor } from '../jobs/processor.js';
import { registeredProcessors } from '../jobs/registry.js';
import { startWorkers } from '../main.js';

/**
 * Where the process dies: the two sides of the gap between an inventory append and the order append, or right
 * after a receipt number is taken from its year's stream, before the order records it.
 */
export type KillPoint =
  | 'after the inventory append'
  | 'before the order append'
  | 'after the receipt number append';

export interface KillableWorkersSettings {
  killAt: KillPoint;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  keySecret: string;
  publicUrl: string;
  mail: MailSettings;
}

const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: the process is killed');
};

/** The processor that hosts the kill point, wrapped so that the process dies there. */
const killing = (killAt: KillPoint, processor: JobProcessor): JobProcessor => {
  if (killAt === 'after the inventory append' && processor.queue === 'assign-keys') {
    return {
      ...processor,
      handle: async (job, token) => {
        await processor.handle(job, token);
        return die();
      },
    };
  }
  if (killAt === 'before the order append' && processor.queue === 'record-order-keys') {
    return { ...processor, handle: async () => die() };
  }
  return processor;
};

/** The event store, but the process dies as soon as an append to a receipts stream has landed. */
const dyingAfterReceiptAppend = (eventStore: EventStore): EventStore => ({
  readStream: (stream, from) => eventStore.readStream(stream, from),
  readLastEvent: (stream) => eventStore.readLastEvent(stream),
  readAll: (after, limit) => eventStore.readAll(after, limit),
  readAllOfTypes: (after, limit, types) => eventStore.readAllOfTypes(after, limit, types),
  subscribeAll: (after, signal) => eventStore.subscribeAll(after, signal),
  close: () => eventStore.close(),
  append: async (stream, events, expected) => {
    const appended = await eventStore.append(stream, events, expected);
    return stream.startsWith('receipts-') ? die() : appended;
  },
});

const settings = JSON.parse(process.env.KILLABLE_WORKERS ?? '') as KillableWorkersSettings;
await startWorkers({
  databaseUrl: settings.databaseUrl,
  redisUrl: settings.redisUrl,
  queuePrefix: settings.queuePrefix,
  logger: silentLogger,
  sideEffects: {
    keyVault: createKeyVault(settings.keySecret),
    orderAccess: createOrderAccess(settings.keySecret),
    lowStockThreshold: 0,
    publicUrl: settings.publicUrl,
    mail: settings.mail,
  },
  processors: (context) =>
    settings.killAt === 'after the receipt number append'
      ? registeredProcessors({ ...context, eventStore: dyingAfterReceiptAppend(context.eventStore) })
      : registeredProcessors(context).map((processor) => killing(settings.killAt, processor)),
});
console.log('ready');

import type { EventStore, Position, RecordedEvent } from '@licensestore/domain/events';
import { openDatabase } from '@licensestore/platform/db';
import { encodePosition, openEventStore } from '@licensestore/platform/eventstore';
import type { Logger } from '@licensestore/platform/logging';
import { readableEvents } from '@licensestore/platform/readmodel';
import type pg from 'pg';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
import { migrateReadModel } from '../../src/migrations/index.js';
import { allProjectors } from '../../src/projectors.js';
import { type BatchApplied, runProjectors } from '../../src/runner.js';
import { expectedProducts, readProducts } from './catalogue.js';

/** A fresh database with the event store and the migrated read schema. */
export async function openTestReadModel() {
  const url = await createTestDatabase();
  const database = openDatabase(url);
  await migrateReadModel(database.db);
  const store = await openEventStore({ databaseUrl: url });
  return {
    url,
    db: database.db,
    pool: database.pool,
    store,
    close: async () => {
      await store.close();
      await database.close();
    },
  };
}

/** The events of the whole log that read (a test may have left one in it that does not). */
export async function readAllEvents(store: EventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  let after: Position | null = null;
  for (;;) {
    const batch = await store.readAll(after, 10_000);
    if (batch.length === 0) return events;
    events.push(...readableEvents(batch));
    after = batch.at(-1)?.position ?? after;
  }
}

/** The products table holds exactly the rows the domain's own fold of the whole log gives. */
export async function expectProductsOfTheLog(env: Pick<TestReadModel, 'db' | 'store'>) {
  expect(await readProducts(env.db)).toEqual(expectedProducts(await readAllEvents(env.store)));
}

/**
 * The position of the last committed event, read from the table: `readAll` holds back the events behind any open
 * transaction, a running projector's own among them, so a head read through it while the runner writes can be
 * short of what has been appended.
 */
export async function headPosition(env: { pool: pg.Pool }): Promise<Position> {
  // Output names other than the columns': ORDER BY would take a same-named text output column over the column.
  const { rows } = await env.pool.query<{ major: string; minor: string }>(
    `SELECT transaction_id::text AS major, global_position::text AS minor FROM event_store.events
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  );
  const last = rows[0];
  if (!last) throw new Error('the log is empty');
  return encodePosition(last.major, last.minor);
}

export interface LogLine {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

/** A logger that keeps its lines and lets a test wait (bounded) for one. */
export function recordingLogger() {
  const lines: LogLine[] = [];
  const write = (level: string) => (fields: object, msg: string) => {
    lines.push({ level, msg, fields: fields as Record<string, unknown> });
  };
  const logger: Logger = {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
  /** The first line with this message, once it has been logged. */
  const waitFor = (msg: string, timeoutMs = 10_000): Promise<LogLine> =>
    vi.waitFor(
      () => {
        const line = lines.find((logged) => logged.msg === msg);
        if (!line) throw new Error(`no "${msg}" log line within ${timeoutMs} ms`);
        return line;
      },
      { timeout: timeoutMs, interval: 20 },
    );
  return { logger, lines, waitFor };
}

/** Runs the projectors in-process until the returned stop is called. */
export function startRunner(options: {
  db: Parameters<typeof runProjectors>[0]['db'];
  pool: pg.Pool;
  store: EventStore;
  maxBatch?: number;
  logger?: Logger;
}) {
  const controller = new AbortController();
  const batches: BatchApplied[] = [];
  const log = options.logger ?? recordingLogger().logger;
  const running = runProjectors({
    db: options.db,
    pool: options.pool,
    store: options.store,
    projectors: allProjectors,
    log,
    signal: controller.signal,
    maxBatch: options.maxBatch,
    onBatch: (batch) => batches.push(batch),
  });
  return {
    batches,
    stop: async () => {
      controller.abort();
      await running;
    },
  };
}

/** A fresh read model, as a test reads it: its database, pool and event store. */
export type TestReadModel = Omit<Awaited<ReturnType<typeof openTestReadModel>>, 'close'>;

/**
 * A fresh read model for the enclosing describe block: opened before its tests, closed after. Its parts are read
 * inside tests (they are set in beforeAll).
 */
export function useTestReadModel(): TestReadModel {
  let opened: Awaited<ReturnType<typeof openTestReadModel>> | undefined;
  beforeAll(async () => {
    opened = await openTestReadModel();
  });
  afterAll(() => opened?.close());
  const env = () => {
    if (!opened) throw new Error('the read model opens in beforeAll');
    return opened;
  };
  return {
    get url() {
      return env().url;
    },
    get db() {
      return env().db;
    },
    get pool() {
      return env().pool;
    },
    get store() {
      return env().store;
    },
  };
}

/**
 * A fresh read model with every projector running, for the enclosing describe block: started before its tests,
 * stopped after.
 */
export function useRunningReadModel() {
  const log = recordingLogger();
  const env = useTestReadModel();
  let runner: ReturnType<typeof startRunner> | undefined;
  beforeAll(() => {
    runner = startRunner({ ...env, logger: log.logger });
  });
  // Hooks after the tests run in the reverse order of their registration: the runner stops before the model closes.
  afterAll(() => runner?.stop());
  return { log, env };
}

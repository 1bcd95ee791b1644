import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '@licensestore/domain/events';
import { type Database, openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../../scripts/stack/embedded-postgres.js';
import { migrateReadModel } from '../../src/migrations/index.js';

/**
 * A database of its own for one benchmark run: a new database on the server DATABASE_URL names (dropped
 * afterwards), or without it an embedded Postgres in a temporary directory.
 */
export async function withBenchDatabase<T>(run: (url: string) => Promise<T>): Promise<T> {
  const given = process.env.DATABASE_URL;
  if (given) {
    const name = `bench_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: given });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(given);
    url.pathname = `/${name}`;
    try {
      return await run(url.toString());
    } finally {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'licensestore-bench-'));
  // As root, Postgres runs as the postgres user, which must be able to reach its data directory.
  await chmod(dir, 0o755);
  const server = await startEmbeddedPostgres(join(dir, 'postgres'));
  try {
    await server.createDatabase('bench');
    return await run(server.url('bench'));
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** SQLSTATE 57P01: the server terminated the connection (here: it is shutting down). */
const ADMIN_SHUTDOWN = '57P01';

export interface BenchReadModel {
  db: Kysely<Database>;
  pool: pg.Pool;
  store: EventStore;
  /** The Postgres server's version, for the report. */
  serverVersion: string | undefined;
}

/** A bench database with the event store and the migrated read model, open for `run` and closed after it. */
export function withBenchReadModel<T>(
  options: { connections: number },
  run: (model: BenchReadModel) => Promise<T>,
): Promise<T> {
  return withBenchDatabase(async (url) => {
    const { db, pool, close } = openDatabase(url, { max: options.connections });
    // Ending the pool does not wait for every backend to go; the server's shutdown after the run ends the rest,
    // which an idle client reports as an error that would otherwise crash a finished run.
    pool.on('error', (error: Error & { code?: string }) => {
      if (error.code !== ADMIN_SHUTDOWN) throw error;
    });
    const store = await openEventStore({ databaseUrl: url });
    try {
      await migrateReadModel(db);
      const { rows } = await pool.query<{ server_version: string }>('SHOW server_version');
      return await run({ db, pool, store, serverVersion: rows[0]?.server_version });
    } finally {
      await store.close();
      await close();
    }
  });
}

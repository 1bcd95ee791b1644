import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../scripts/stack/embedded-postgres.js';
import { startRedisServer } from '../scripts/stack/redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection URL of a maintenance database; each test file creates its own database from it. */
    postgresAdminUrl: string;
    redisUrl: string;
  }
}

/**
 * One Postgres server and one Redis server for the whole run, started from scratch so the suite never
 * depends on services the machine happens to have. Isolation comes from a fresh database per test file
 * and random key prefixes in Redis.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'licensestore-test-'));
  // As root, Postgres runs as the `postgres` user, which must be able to enter the directory.
  await chmod(dir, 0o755);
  const started = await Promise.allSettled([
    startEmbeddedPostgres(join(dir, 'postgres')),
    startRedisServer(join(dir, 'redis')),
  ]);
  const [postgres, redis] = started;
  if (postgres.status === 'rejected' || redis.status === 'rejected') {
    // Never leave the other server running behind a failed start.
    await Promise.all(started.map((server) => (server.status === 'fulfilled' ? server.value.stop() : null)));
    throw postgres.status === 'rejected' ? postgres.reason : (redis as PromiseRejectedResult).reason;
  }
  project.provide('postgresAdminUrl', postgres.value.url('postgres'));
  project.provide('redisUrl', redis.value.url);
  return async () => {
    await Promise.all([postgres.value.stop(), redis.value.stop()]);
    await rm(dir, { recursive: true, force: true });
  };
}

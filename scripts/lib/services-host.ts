// The local Postgres and Redis of `npm start`, in a process of their own.
//
// The supervisor (scripts/start.ts) spawns this detached, in its own process group, so the terminal's Ctrl-C does
// not reach the database servers: they stop last, when the supervisor says so, after every role has let go of
// them. The host reports its URLs over the IPC channel, stops on a `stop` message, and also stops (in order) when
// the channel closes because the supervisor died.
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { type RunningPostgres, startDataDirPostgres } from '../stack/embedded-postgres.js';
import { makeOwnerOnly } from '../stack/owner-only.js';
import { RedisNotInstalledError, type RunningRedis, startRedisServer } from '../stack/redis-server.js';
import { ensureSecret, REDIS_PASSWORD_FILE } from './secrets.js';
import type { HostMessage, HostOptions, LocalService, SupervisorMessage } from './services-protocol.js';

// embedded-postgres hooks SIGINT/SIGTERM/SIGHUP to stop its servers and exit at once; this process decides when.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeAllListeners(signal);

const options = JSON.parse(process.argv[2] ?? '{}') as HostOptions;
const send = (message: HostMessage) => process.send?.(message);

// The servers' logs name users and databases (Postgres's DETAIL lines): owner-only, like the rest of DATA_DIR,
// logs written before this rule included.
const logsDir = join(options.dataDir, 'logs');
await makeOwnerOnly(logsDir);
const logTo = (name: string) => {
  const stream = createWriteStream(join(logsDir, name), { flags: 'a', mode: 0o600 });
  return (line: string) => stream.write(line.endsWith('\n') ? line : `${line}\n`);
};

// Each server's password is generated once into DATA_DIR/secrets and reused, like the app's own secrets.
const postgres: Promise<RunningPostgres | undefined> = options.postgres
  ? startDataDirPostgres(options.dataDir, logTo('postgres.log'))
  : Promise.resolve(undefined);
const redis: Promise<RunningRedis | undefined> = options.redis
  ? ensureSecret(options.dataDir, REDIS_PASSWORD_FILE).then((password) =>
      startRedisServer(join(options.dataDir, 'redis'), logTo('redis.log'), password),
    )
  : Promise.resolve(undefined);

let stopping: Promise<void> | undefined;
/** Redis, then Postgres; a server still starting is stopped once it is up. */
const stopAndExit = (code: number) => {
  stopping ??= (async () => {
    await redis.then((server) => server?.stop()).catch(() => {});
    await postgres.then((server) => server?.stop()).catch(() => {});
    process.disconnect?.();
    process.exit(code);
  })();
  return stopping;
};

/** Reports `restarted` with the error, if any: a server that failed to come back fails the caller, not this host. */
async function restart(service: LocalService) {
  const server = await (service === 'postgres' ? postgres : redis);
  let error: string | null = server ? null : `${service} is not run by this host`;
  if (server && !stopping) await server.restart().catch((cause: unknown) => (error = String(cause)));
  send({ type: 'restarted', service, error });
}

process.on('message', (message: SupervisorMessage) => {
  if (message.type === 'stop') void stopAndExit(0);
  else if (message.type === 'restart') void restart(message.service);
});
process.on('disconnect', () => void stopAndExit(0));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAndExit(0));

try {
  const [startedPostgres, startedRedis] = await Promise.all([postgres, redis]);
  await startedPostgres?.createDatabase(options.database);
  send({ type: 'ready', databaseUrl: startedPostgres?.url(options.database), redisUrl: startedRedis?.url });
} catch (error) {
  send({
    type: 'failed',
    message: error instanceof Error ? error.message : String(error),
    redisMissing: error instanceof RedisNotInstalledError,
  });
  await stopAndExit(1);
}

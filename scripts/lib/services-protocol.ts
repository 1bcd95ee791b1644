/** What the supervisor asks of the services host (argv[2], JSON). */
export interface HostOptions {
  dataDir: string;
  /** Start embedded Postgres in `$DATA_DIR/postgres` and create `database` in it. */
  postgres: boolean;
  database: string;
  /** Start redis-server with its data in `$DATA_DIR/redis`. */
  redis: boolean;
}

export type LocalService = 'postgres' | 'redis';

export type HostMessage =
  | { type: 'ready'; databaseUrl: string | undefined; redisUrl: string | undefined }
  | { type: 'failed'; message: string; redisMissing: boolean }
  | { type: 'restarted'; service: LocalService; error: string | null };

/** `restart` stops a server and starts it again on the same port and data (fault tests of the cluster). */
export type SupervisorMessage = { type: 'stop' } | { type: 'restart'; service: LocalService };

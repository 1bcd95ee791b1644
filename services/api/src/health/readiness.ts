import type { EventStore } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import { allProjectorDescriptors } from '@licensestore/platform/readmodel';
import type { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import { projectionLag } from './projection-lag.js';
import { withinTimeout } from './within-timeout.js';

/** A projector counts as caught up while nothing it has not applied is older than this. */
export const MAX_PROJECTION_LAG_MS = 5_000;
/** A dependency that takes longer than this to answer counts as down: a readiness probe must answer quickly. */
const CHECK_TIMEOUT_MS = 2_000;

export type CheckResult = 'ok' | string;

export interface Readiness {
  ready: boolean;
  checks: {
    postgres: CheckResult;
    redis: CheckResult;
    eventStore: CheckResult;
    projections: Record<string, CheckResult>;
  };
}

const outcome = (work: Promise<unknown>): Promise<CheckResult> =>
  withinTimeout(work, CHECK_TIMEOUT_MS).then(
    () => 'ok',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

/**
 * Where each projector stands: 'ok' when its checkpoint has the code's version and the oldest event it has not
 * applied (if any) is younger than MAX_PROJECTION_LAG_MS. Judging by age rather than by "nothing left" keeps a
 * store that takes orders every second ready; only the first unapplied event is read.
 */
async function projectionStates(db: Kysely<Database>, eventStore: EventStore, now: number) {
  const lags = await projectionLag(db, eventStore, { now, countUpTo: 1 });
  const states: Record<string, CheckResult> = {};
  for (const lag of lags) {
    if (!lag.started) {
      states[lag.name] = 'not started';
    } else if (lag.storedVersion !== lag.codeVersion) {
      states[lag.name] = `version ${lag.storedVersion}, code ${lag.codeVersion}: rebuilding`;
    } else {
      states[lag.name] =
        lag.secondsBehind * 1000 > MAX_PROJECTION_LAG_MS
          ? `behind by ${Math.round(lag.secondsBehind)} s`
          : 'ok';
    }
  }
  return states;
}

/** GET /readyz: Postgres, Redis and the event store answer, and every projector is caught up. */
export async function readiness(deps: {
  db: Kysely<Database>;
  redis: Redis;
  eventStore: EventStore;
}): Promise<Readiness> {
  const { db, redis, eventStore } = deps;
  const [postgres, redisCheck, eventStoreCheck] = await Promise.all([
    outcome(sql`SELECT 1`.execute(db)),
    outcome(redis.ping()),
    outcome(eventStore.readAll(null, 1)),
  ]);
  let projections: Record<string, CheckResult>;
  if (postgres === 'ok' && eventStoreCheck === 'ok') {
    projections = await withinTimeout(projectionStates(db, eventStore, Date.now()), CHECK_TIMEOUT_MS).catch(
      (error: unknown) =>
        Object.fromEntries(allProjectorDescriptors.map((projector) => [projector.name, String(error)])),
    );
  } else {
    projections = Object.fromEntries(allProjectorDescriptors.map((projector) => [projector.name, 'unknown']));
  }
  const checks = { postgres, redis: redisCheck, eventStore: eventStoreCheck, projections };
  const ready =
    postgres === 'ok' &&
    redisCheck === 'ok' &&
    eventStoreCheck === 'ok' &&
    Object.values(projections).every((state) => state === 'ok');
  return { ready, checks };
}

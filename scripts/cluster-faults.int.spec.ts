// Faults under load: while shoppers keep buying through the load balancer, each role in turn is
// killed with SIGKILL, then Redis and then Postgres are restarted. After each fault the store must recover by itself
// (the supervisor restarts what died, standbys take over, clients reconnect) and have lost or doubled nothing.
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ClusterInstance } from './cluster.js';
import { checkCluster } from './testing/cluster-checks.js';
import { activeInstance } from './testing/cluster-output.js';
import { type Purchase, startShopping } from './testing/shoppers.js';
import { clusterForThisFile } from './testing/test-cluster.js';

const SHOPPERS = 3;
/** Purchases that must go through after a fault before the store counts as recovered. */
const AFTER_FAULT = 6;
/** Bound on each wait for recovery; none of them is a performance claim. */
const RECOVERY_MS = 90_000;
const FAULT_MS = 240_000;

describe('the cluster under faults, while purchases continue', () => {
  const store = clusterForThisFile();
  const purchases: Purchase[] = [];

  /** Bounded: rejects naming `what` when `promise` has not settled within `ms`. */
  const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
    Promise.race([
      promise,
      delay(ms, undefined, { ref: false }).then(() => {
        throw new Error(`timed out after ${ms} ms waiting for ${what}`);
      }),
    ]);

  /** Both api instances and the emulator pass their health checks again. */
  async function untilInRotation() {
    const deadline = Date.now() + RECOVERY_MS;
    for (;;) {
      const up = await store.cluster.inRotation();
      if (['api-1', 'api-2', 'paypal-sandbox'].every((name) => up.includes(name))) return;
      if (Date.now() > deadline) throw new Error(`only ${up.join(', ')} in rotation after ${RECOVERY_MS} ms`);
      await delay(250);
    }
  }

  /** SIGKILL, as an out-of-memory kill or a power cut would; resolves once the supervisor has started another. */
  async function killHard(victim: ClusterInstance) {
    victim.kill('SIGKILL');
    await within(victim.replaced(), RECOVERY_MS, `${victim.label} to be restarted`);
  }

  /**
   * Shoppers buy; the fault strikes once they are under way; once the store is back (every instance in rotation
   * and AFTER_FAULT more purchases through), the shoppers finish what they hold and the store is checked whole.
   */
  async function underLoad(what: string, fault: () => Promise<void>) {
    const before = purchases.length;
    // Each round starts further along the catalogue, so no product runs out of its 20 demo keys.
    const offset = purchases.length % store.products.length;
    const shopping = startShopping(
      store.cluster.url,
      [...store.products.slice(offset), ...store.products.slice(0, offset)],
      SHOPPERS,
    );
    try {
      await shopping.completed(SHOPPERS, RECOVERY_MS);
      await fault();
      await untilInRotation();
      await shopping.completed(shopping.purchases.length + AFTER_FAULT, RECOVERY_MS);
    } finally {
      purchases.push(...(await shopping.stop()));
    }
    const round = purchases.slice(before);
    console.log(
      `${what}: ${round.length} purchases during the round, ${round.reduce((sum, p) => sum + p.retries, 0)} ` +
        `retried steps; ${purchases.length} orders in all`,
    );
    const facts = await checkCluster(store.cluster, purchases, store.mail, store.output);
    expect(facts.problems).toEqual([]);
    expect(facts.verify.mismatches).toEqual([]);
    expect(facts).toMatchObject({
      orders: purchases.length,
      paidOrders: purchases.length,
      keysAssigned: purchases.length,
      ordersProjected: purchases.length,
      dashboardOrders: purchases.length,
      customerOrders: purchases.length,
      deliveryEmails: purchases.length,
      verify: { passed: true },
    });
  }

  it(
    'loses nothing when an api instance is killed',
    () => underLoad('api-1 killed', () => killHard(store.cluster.instance('api-1'))),
    FAULT_MS,
  );

  it(
    'loses nothing when the active projections runner is killed',
    () =>
      underLoad('active projections killed', () =>
        killHard(store.cluster.instance(activeInstance(store.output, 'projections'))),
      ),
    FAULT_MS,
  );

  it(
    'loses nothing when the workers instance with the active reactor is killed',
    () =>
      underLoad('reacting workers killed', () =>
        killHard(store.cluster.instance(activeInstance(store.output, 'workers', 'reactor active'))),
      ),
    FAULT_MS,
  );

  it(
    'loses nothing when a workers instance that only consumes jobs is killed',
    () =>
      underLoad('consuming workers killed', async () => {
        const reacting = activeInstance(store.output, 'workers', 'reactor active');
        await killHard(store.cluster.instance(reacting === 'workers-1' ? 'workers-2' : 'workers-1'));
      }),
    FAULT_MS,
  );

  const restartable = [
    { name: 'Redis', service: 'redis', identity: () => redisRunId(store.cluster.redisUrl) },
    { name: 'Postgres', service: 'postgres', identity: () => postgresStartedAt(store.cluster.databaseUrl) },
  ] as const;
  for (const { name, service, identity } of restartable) {
    it(
      `loses nothing when ${name} restarts`,
      () =>
        underLoad(`${name} restarted`, async () => {
          const before = await identity();
          await store.cluster.restartService(service);
          // A server that answers as before was not restarted at all.
          expect(await identity()).not.toBe(before);
        }),
      FAULT_MS,
    );
  }

  it('had shoppers retry requests that the faults cut', () => {
    // Not a claim about any single fault: over the run, some request must have met a fault and been retried.
    expect(purchases.reduce((sum, p) => sum + p.retries, 0)).toBeGreaterThan(0);
  });
});

/** Redis's id of this server process: a new one after a restart. */
async function redisRunId(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return /run_id:(\w+)/.exec(await redis.info('server'))?.[1] ?? '';
  } finally {
    redis.disconnect();
  }
}

/** When the Postgres server process started: a later time after a restart. */
async function postgresStartedAt(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ at: string }>('SELECT pg_postmaster_start_time()::text AS at');
    return rows[0]?.at ?? '';
  } finally {
    await client.end();
  }
}

import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { checkCluster } from './testing/cluster-checks.js';
import { activeInstance } from './testing/cluster-output.js';
import { type Product, type Purchase, purchase, startShopping } from './testing/shoppers.js';
import { clusterForThisFile } from './testing/test-cluster.js';

const ORDERS = 40;
const SHOPPERS = 4;
/** Generous bound on the standby's takeover; the target (5 s) is reported, not asserted. */
const TAKEOVER_BOUND_MS = 30_000;

describe('npm run start:cluster', () => {
  const store = clusterForThisFile();
  const purchases: Purchase[] = [];

  it('runs two of each role behind haproxy', async () => {
    expect(
      store.cluster
        .instances()
        .map((instance) => instance.label)
        .sort(),
    ).toEqual([
      'api-1',
      'api-2',
      'paypal-sandbox',
      'projections-1',
      'projections-2',
      'workers-1',
      'workers-2',
    ]);
    expect((await store.cluster.inRotation()).sort()).toEqual(['api-1', 'api-2', 'paypal-sandbox']);
  });

  it('takes a stream of purchases on both api instances, losing and doubling nothing', async () => {
    const shopping = startShopping(store.cluster.url, store.products, SHOPPERS, ORDERS);
    purchases.push(...(await shopping.finished()));
    expect(purchases).toHaveLength(ORDERS);

    const served = await store.cluster.served();
    expect(served['api-1'], JSON.stringify(served)).toBeGreaterThan(ORDERS / 4);
    expect(served['api-2'], JSON.stringify(served)).toBeGreaterThan(ORDERS / 4);

    const facts = await checkCluster(store.cluster, purchases, store.mail, store.output);
    expect(facts.problems).toEqual([]);
    expect(facts).toMatchObject({
      orders: ORDERS,
      paidOrders: ORDERS,
      keysAssigned: ORDERS,
      ordersProjected: ORDERS,
      dashboardOrders: ORDERS,
      customerOrders: ORDERS,
      deliveryEmails: ORDERS,
    });
    expect(facts.verify.mismatches).toEqual([]);
    expect(facts.verify.passed).toBe(true);
  }, 240_000);

  it('lets the standby projections runner take over when the active one is killed', async () => {
    const active = activeInstance(store.output, 'projections');
    const standby = active === 'projections-1' ? 'projections-2' : 'projections-1';
    const before = store.output.length;

    const victim = store.cluster.instance(active);
    const killedAt = performance.now();
    victim.kill('SIGKILL');
    await store.untilLogged(standby, 'active', before, TAKEOVER_BOUND_MS);
    const tookOverMs = performance.now() - killedAt;
    const bought = await purchase(store.cluster.url, store.products[0] as Product, 99);
    await waitUntilProjected(store.cluster.databaseUrl, bought.orderId, TAKEOVER_BOUND_MS);
    const projectedMs = performance.now() - killedAt;
    purchases.push(bought);
    console.log(
      `projections takeover: ${standby} active ${Math.round(tookOverMs)} ms after ${active} was killed; ` +
        `a new purchase projected ${Math.round(projectedMs)} ms after the kill`,
    );

    expect(tookOverMs).toBeLessThan(TAKEOVER_BOUND_MS);
    // The killed instance is restarted by the supervisor and stands by.
    const replaced = await victim.replaced();
    await store.untilLogged(active, 'standing by', before, TAKEOVER_BOUND_MS);
    expect(replaced.pid).not.toBe(victim.pid);

    const facts = await checkCluster(store.cluster, purchases, store.mail, store.output);
    expect(facts.problems).toEqual([]);
    expect(facts.ordersProjected).toBe(purchases.length);
    expect(facts.verify.passed).toBe(true);
  }, 180_000);
});

/** Polls the orders read model (bounded) until it holds `orderId`. */
async function waitUntilProjected(databaseUrl: string, orderId: string, timeoutMs: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while ((await client.query('SELECT 1 FROM orders WHERE id = $1', [orderId])).rowCount === 0) {
      if (Date.now() > deadline) throw new Error(`order ${orderId} not projected within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.end();
  }
}

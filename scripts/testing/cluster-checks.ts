// What a running store must look like after a stream of purchases, faults or not: read from the log (the truth),
// the read models and the mail the store's SMTP server received.
import { setTimeout as delay } from 'node:timers/promises';
import type { VerifyReport } from '@licensestore/domain/audit-verify';
import { openDatabase } from '@licensestore/platform/db';
import { openEventStore } from '@licensestore/platform/eventstore';
import { silentLogger } from '@licensestore/platform/logging';
import { verifyReadModels } from '../../projections/src/audit/verify.js';
import { deliveriesByMessageId, type TestSmtpServer } from '../../test/support/smtp-server.js';
import { checkStoreInvariants, type StoreInvariants } from '../../test/support/store-invariants.js';
import { MAY_REPEAT_MESSAGE } from '../../workers/src/processors/hand-over.js';
import { countLoggedBy } from './cluster-output.js';
import type { Purchase } from './shoppers.js';

export interface ClusterFacts extends StoreInvariants {
  /** Rows of the orders read model, and the dashboard's and the customers' order counts. */
  ordersProjected: number;
  dashboardOrders: number;
  customerOrders: number;
  /** Delivery e-mails the SMTP server received (each Message-ID once). */
  deliveryEmails: number;
  verify: Pick<VerifyReport, 'passed' | 'events' | 'mismatches'>;
}

/**
 * Waits (bounded) until every purchase is delivered and the read models have caught up, then checks: each
 * captured PayPal order is exactly one order and the log holds no other, each paid order has its keys and exactly
 * one delivery e-mail, no key went to two orders, the orders, customers and dashboard read models count every order
 * once, and the audit verification (every read model replayed from the log and compared) passes.
 */
export async function checkCluster(
  store: { databaseUrl: string },
  purchases: readonly Purchase[],
  mail: TestSmtpServer,
  output: readonly string[],
  timeoutMs = 90_000,
): Promise<ClusterFacts> {
  const eventStore = await openEventStore({ databaseUrl: store.databaseUrl });
  const database = openDatabase(store.databaseUrl, { max: 4 });
  try {
    const captured = purchases.map((p) => p.paypalOrderId);
    const deadline = Date.now() + timeoutMs;
    let invariants: StoreInvariants;
    for (;;) {
      invariants = await checkStoreInvariants(
        eventStore,
        deliveriesByMessageId(mail.received),
        captured,
        countLoggedBy(output, MAY_REPEAT_MESSAGE, 'messageId'),
      );
      if (invariants.problems.length === 0 || Date.now() > deadline) break;
      await delay(500);
    }
    if (invariants.orders !== purchases.length) {
      invariants.problems.push(`${invariants.orders} orders in the log for ${purchases.length} purchases`);
    }
    // Waits for each live projector to reach the end of the log it replayed, so the counts below are current.
    const report = await verifyReadModels({
      db: database.db,
      pool: database.pool,
      store: eventStore,
      log: silentLogger,
    });
    const { rows } = await database.pool.query<{ orders: number; dashboard: number; customers: number }>(
      `SELECT (SELECT count(*)::int FROM orders) AS orders,
              (SELECT order_count FROM dashboard_stats) AS dashboard,
              (SELECT coalesce(sum(order_count), 0)::int FROM customers) AS customers`,
    );
    const delivered = deliveriesByMessageId(mail.received);
    return {
      ...invariants,
      ordersProjected: rows[0]?.orders ?? 0,
      dashboardOrders: rows[0]?.dashboard ?? 0,
      customerOrders: rows[0]?.customers ?? 0,
      deliveryEmails: [...delivered.keys()].filter((id) => id.startsWith('<delivery.')).length,
      verify: { passed: report.passed, events: report.events, mismatches: report.mismatches },
    };
  } finally {
    await Promise.allSettled([eventStore.close(), database.close()]);
  }
}

import { loadStream } from '@licensestore/domain/commands';
import type { EventStore } from '@licensestore/domain/events';
import type { CapturedCheckout } from '@licensestore/domain/orders';
import { customerEmailKey } from '@licensestore/domain/orders';
import {
  matchRiskRules,
  RISK_RULES_STREAM,
  type RiskRuleName,
  type RiskRules,
  riskDecider,
  type ScreeningHistory,
} from '@licensestore/domain/risk';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/index.js';

/** What the store knew of the buyer and the client address before this order, for the rules that ask. */
export type ReadScreeningHistory = (
  checkout: CapturedCheckout,
  velocityWindowMinutes: number | null,
) => Promise<ScreeningHistory>;

/**
 * The history a placement that cannot read the orders read model (the workers' repair of an order the api never
 * placed) screens with: taken as a first order, with no velocity record. A rule about first orders then holds it,
 * the safer mistake for an order nobody watched being placed.
 */
export const UNKNOWN_HISTORY: ReadScreeningHistory = async () => ({
  earlierOrdersOfCustomer: 0,
  recentFromClient: [],
});

/**
 * The history from the orders read model: earlier orders under the buyer's e-mail key PayPal did not deny, and the
 * orders the same client address placed within the velocity window before this one. The read model trails the log
 * by the projector's lag (milliseconds while it keeps up): orders placed closer together than that are not yet
 * counted, which a burst from a script can exploit by that much and no more.
 */
export const readModelHistory =
  (db: Kysely<Database>): ReadScreeningHistory =>
  async (checkout, windowMinutes) => {
    const { rows: earlier } = await sql<{ count: string }>`
      SELECT count(*)::text AS count FROM orders
       WHERE customer_email_key = ${customerEmailKey(checkout.customer.email)}
         AND id <> ${checkout.orderId}::uuid AND payment_status <> 'denied'`.execute(db);
    const earlierOrdersOfCustomer = Number(earlier[0]?.count ?? 0);
    if (windowMinutes === null || !checkout.clientHash)
      return { earlierOrdersOfCustomer, recentFromClient: [] };
    const until = new Date(checkout.capturedAt);
    const since = new Date(until.getTime() - windowMinutes * 60_000);
    const { rows } = await sql<{ email: string }>`
      SELECT customer_email AS email FROM orders
       WHERE client_hash = ${checkout.clientHash} AND created_at >= ${since} AND created_at <= ${until}
         AND id <> ${checkout.orderId}::uuid`.execute(db);
    return { earlierOrdersOfCustomer, recentFromClient: rows };
  };

const anyRuleOn = (rules: RiskRules) =>
  rules.holdAtOrAbove !== null ||
  rules.firstOrderAtOrAbove !== null ||
  rules.velocity !== null ||
  rules.blockedEmailDomains.length > 0 ||
  rules.productQuantityAtOrAbove !== null;

/** What the rules decided for an order: the rules it matched (none: not held), and when it is approved unless decided. */
export interface Screening {
  heldFor: RiskRuleName[];
  autoApproveAt: string | null;
}

/** The rules a captured checkout's order matches under the store's current rules; none read when none are on. */
export async function screenCheckout(
  eventStore: EventStore,
  readHistory: ReadScreeningHistory,
  checkout: CapturedCheckout,
): Promise<Screening> {
  const { state } = await loadStream(eventStore, RISK_RULES_STREAM, riskDecider);
  const { rules } = state;
  if (!anyRuleOn(rules)) return { heldFor: [], autoApproveAt: null };
  const history = await readHistory(checkout, rules.velocity?.windowMinutes ?? null);
  const heldFor = matchRiskRules(
    rules,
    { total: checkout.total, email: checkout.customer.email, lines: checkout.lines },
    history,
  );
  const after = rules.autoApproveAfterMinutes;
  const autoApproveAt =
    after === null ? null : new Date(Date.parse(checkout.capturedAt) + after * 60_000).toISOString();
  return { heldFor, autoApproveAt };
}

import { toCents } from '../money/index.js';
import { customerEmailKey } from '../orders/customer-email-key.js';
import type { RiskRuleName, RiskRules } from './rules.js';

/** The order being screened, as its capture describes it. */
export interface ScreenedOrder {
  total: string;
  email: string;
  lines: ReadonlyArray<{ productId: string; quantity: number }>;
}

/** What the store knew of the buyer and the client address when the order came in (this order not counted). */
export interface ScreeningHistory {
  /** Orders placed earlier under the same e-mail address. */
  earlierOrdersOfCustomer: number;
  /**
   * Orders from the same client address within the velocity window before this one, with their e-mail addresses;
   * empty when the address is unknown (an order completed by PayPal's webhook alone).
   */
  recentFromClient: ReadonlyArray<{ email: string }>;
}

const domainOf = (email: string) => customerEmailKey(email).split('@').pop() ?? '';

const isAtDomain = (domain: string, blocked: string) => domain === blocked || domain.endsWith(`.${blocked}`);

const unitsByProduct = (lines: ScreenedOrder['lines']) => {
  const units = new Map<string, number>();
  for (const line of lines) units.set(line.productId, (units.get(line.productId) ?? 0) + line.quantity);
  return [...units.values()];
};

/** The rules an order matches, in the order the rule set lists them: empty when it is not to be held. */
export function matchRiskRules(
  rules: RiskRules,
  order: ScreenedOrder,
  history: ScreeningHistory,
): RiskRuleName[] {
  const total = toCents(order.total);
  const atOrAbove = (limit: string | null) => limit !== null && total >= toCents(limit);
  const matched: RiskRuleName[] = [];
  if (atOrAbove(rules.holdAtOrAbove)) matched.push('order-total');
  if (history.earlierOrdersOfCustomer === 0 && atOrAbove(rules.firstOrderAtOrAbove))
    matched.push('first-order');
  if (rules.velocity) {
    const { maxOrders, maxEmails } = rules.velocity;
    const orders = history.recentFromClient.length + 1;
    const emails = new Set(
      [order.email, ...history.recentFromClient.map((recent) => recent.email)].map(customerEmailKey),
    );
    if (maxOrders !== null && orders > maxOrders) matched.push('velocity-orders');
    if (maxEmails !== null && emails.size > maxEmails) matched.push('velocity-emails');
  }
  const domain = domainOf(order.email);
  if (rules.blockedEmailDomains.some((blocked) => isAtDomain(domain, blocked)))
    matched.push('blocked-email-domain');
  const { productQuantityAtOrAbove: most } = rules;
  if (most !== null && unitsByProduct(order.lines).some((units) => units >= most))
    matched.push('product-quantity');
  return matched;
}

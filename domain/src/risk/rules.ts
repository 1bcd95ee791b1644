import { z } from 'zod';
import { decimalAmount } from '../money/index.js';

/** A domain as an e-mail address ends in it: lower case, at least one dot, no at-sign. */
const emailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{3,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'Enter a domain such as example.com');

const count = z.number().int().min(1).max(10_000);

/**
 * The store's risk rules: each one switched off by null (or an empty list). An order matching any of them is held
 * until an admin approves or rejects it.
 */
export const riskRulesSchema = z.object({
  /** Hold an order whose total is at or above this amount. */
  holdAtOrAbove: decimalAmount.nullable(),
  /** Hold a customer's first order (no earlier one under the same e-mail address) at or above this amount. */
  firstOrderAtOrAbove: decimalAmount.nullable(),
  /**
   * Hold an order when, within `windowMinutes` up to it, its client address placed more than `maxOrders` orders or
   * used more than `maxEmails` distinct e-mail addresses (this order counted).
   */
  velocity: z
    .object({
      windowMinutes: z
        .number()
        .int()
        .min(1)
        .max(7 * 24 * 60),
      maxOrders: count.nullable(),
      maxEmails: count.nullable(),
    })
    .nullable(),
  /** Hold an order whose e-mail address is at one of these domains (or a subdomain of one). */
  blockedEmailDomains: z.array(emailDomain).max(500),
  /** Hold an order that buys this many units of one product, or more. */
  productQuantityAtOrAbove: count.nullable(),
  /** A held order waiting longer than this shows as overdue in the review queue. */
  overdueAfterMinutes: z
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 60),
  /** Approve a held order nobody decided on after this long; null: it waits for an admin. */
  autoApproveAfterMinutes: z
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 60)
    .nullable(),
});
export type RiskRules = z.infer<typeof riskRulesSchema>;

/** The rules of a store that never set any: nothing is held. */
export const NO_RISK_RULES: RiskRules = {
  holdAtOrAbove: null,
  firstOrderAtOrAbove: null,
  velocity: null,
  blockedEmailDomains: [],
  productQuantityAtOrAbove: null,
  overdueAfterMinutes: 60,
  autoApproveAfterMinutes: null,
};

/** The names a hold gives for the rules it matched, as the review queue and the what-if show them. */
export const riskRuleNameSchema = z.enum([
  'order-total',
  'first-order',
  'velocity-orders',
  'velocity-emails',
  'blocked-email-domain',
  'product-quantity',
]);
export type RiskRuleName = z.infer<typeof riskRuleNameSchema>;

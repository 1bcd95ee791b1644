// The risk rules and the review queue: what an admin sends, and what the back office is answered.
import { decimalAmount, reviewStatusSchema, riskRuleNameSchema, riskRulesSchema } from '@licensestore/domain';
import { storableText } from '@licensestore/domain/text';
import { z } from 'zod';

/**
 * PUT /api/admin/risk-rules: the rules to save. Fields left out keep their value, so a script may send only
 * `{ "holdAtOrAbove": "500.00" }`; a field set to null switches its rule off.
 */
export const riskRulesRequestSchema = riskRulesSchema.partial().strict();
export type RiskRulesRequest = z.input<typeof riskRulesRequestSchema>;

/** GET and PUT /api/admin/risk-rules: the rules in force, and when and by whom they were last changed. */
export const riskRulesViewSchema = z.object({
  rules: riskRulesSchema,
  /** Null while the store runs on the defaults (nothing held). */
  changedAt: z.string().nullable(),
  changedBy: z.string().nullable(),
});
export type RiskRulesView = z.infer<typeof riskRulesViewSchema>;

/** POST /api/admin/reviews/:orderId/reject: why, as the buyer's e-mail and the order's timeline say it. */
export const rejectReviewRequestSchema = z
  .object({ reason: storableText({ min: 1, max: 400, multiline: true, label: 'Reason' }) })
  .strict();

/** One order of the review queue, with what the reviewer weighs. */
export const reviewViewSchema = z.object({
  orderId: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  total: decimalAmount,
  status: z.string(),
  paymentStatus: z.string(),
  reviewStatus: reviewStatusSchema,
  /** The rules that held it. */
  rules: z.array(riskRuleNameSchema),
  heldAt: z.string(),
  /** Held longer than the rules' overdue time and still undecided. */
  overdue: z.boolean(),
  /** The buyer's other orders under the same e-mail address, and how many of them were refunded in whole or part. */
  buyer: z.object({ otherOrders: z.number().int(), refundedOrders: z.number().int() }),
  /**
   * The client address's activity over the 24 hours before the hold: its orders and distinct e-mail addresses, and
   * the start of its hash (the address itself is never kept); null when the order came without one.
   */
  client: z
    .object({ hash: z.string(), ordersLastDay: z.number().int(), emailsLastDay: z.number().int() })
    .nullable(),
});
export type ReviewView = z.infer<typeof reviewViewSchema>;

/** GET /api/admin/reviews?status=held|approved|rejected (default held). */
export const reviewListQuerySchema = z.object({ status: reviewStatusSchema.default('held') }).strict();

/** POST …/approve and …/reject: the order's review as it stands after the decision. */
export const reviewDecisionViewSchema = z.object({
  orderId: z.string(),
  reviewStatus: reviewStatusSchema,
  /** Reject: where its full refund stands (PayPal may complete it later). */
  refund: z.object({ refundId: z.string(), status: z.enum(['requested', 'completed', 'failed']) }).optional(),
});
export type ReviewDecisionView = z.infer<typeof reviewDecisionViewSchema>;

/**
 * POST /api/admin/risk-rules/what-if: a draft (fields left out take the current rules' values) and a period, by
 * default the twelve months up to now.
 */
export const whatIfRequestSchema = z
  .object({
    draft: riskRulesRequestSchema,
    from: z.iso.datetime().optional(),
    to: z.iso.datetime().optional(),
  })
  .strict()
  .refine((request) => !request.from || !request.to || request.from < request.to, {
    error: 'must be after from',
    path: ['to'],
  });
export type WhatIfRequest = z.input<typeof whatIfRequestSchema>;

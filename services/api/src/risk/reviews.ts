import type { ReviewView } from '@licensestore/contract/risk';
import { type ReviewStatus, reviewStatusSchema, riskRuleNameSchema } from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import { type Kysely, sql } from 'kysely';

/** The window of a client address's activity the queue shows beside each held order. */
const CLIENT_WINDOW_MS = 24 * 60 * 60_000;
/** The start of a client hash the queue shows: enough to tell addresses apart, nothing to read one back. */
const HASH_SHOWN = 16;
/** A queue is a day's work, not a report: the oldest this many. */
const QUEUE_LIMIT = 200;

interface QueueRow {
  id: string;
  customer_name: string;
  customer_email: string;
  customer_email_key: string;
  total: string;
  status: string;
  payment_status: string;
  review_status: string;
  review_rules: string[];
  held_at: Date;
  client_hash: string | null;
  other_orders: number;
  refunded_orders: number;
  client_orders: number | null;
  client_emails: number | null;
}

/**
 * The orders whose review stands at `status`, the longest waiting first, each with the buyer's other orders (and how
 * many were refunded) and its client address's orders and e-mail addresses over the day before the hold, from the
 * orders read model in one query.
 */
export async function listReviews(
  db: Kysely<Database>,
  status: ReviewStatus,
  { overdueAfterMinutes, now }: { overdueAfterMinutes: number; now: Date },
): Promise<ReviewView[]> {
  const { rows } = await sql<QueueRow>`
    SELECT o.id, o.customer_name, o.customer_email, o.customer_email_key, o.total::text AS total, o.status,
           o.payment_status, o.review_status, o.review_rules, o.held_at, o.client_hash,
           buyer.other_orders, buyer.refunded_orders, client.client_orders, client.client_emails
      FROM orders o
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS other_orders,
               count(*) FILTER (WHERE b.refunded_total > 0 OR b.payment_status = 'refunded')::int AS refunded_orders
          FROM orders b WHERE b.customer_email_key = o.customer_email_key AND b.id <> o.id) buyer
      LEFT JOIN LATERAL (
        SELECT count(*)::int AS client_orders, count(DISTINCT c.customer_email_key)::int AS client_emails
          FROM orders c
         WHERE c.client_hash = o.client_hash
           AND c.created_at > o.held_at - ${`${CLIENT_WINDOW_MS} milliseconds`}::interval
           AND c.created_at <= o.held_at) client ON o.client_hash IS NOT NULL
     WHERE o.review_status = ${status}
     ORDER BY o.held_at, o.id
     LIMIT ${QUEUE_LIMIT}`.execute(db);
  const overdueBefore = now.getTime() - overdueAfterMinutes * 60_000;
  return rows.map((row) => ({
    orderId: row.id,
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    total: row.total,
    status: row.status,
    paymentStatus: row.payment_status,
    reviewStatus: reviewStatusSchema.parse(row.review_status),
    rules: row.review_rules.flatMap((rule) => {
      const name = riskRuleNameSchema.safeParse(rule);
      return name.success ? [name.data] : [];
    }),
    heldAt: row.held_at.toISOString(),
    overdue: row.review_status === 'held' && row.held_at.getTime() < overdueBefore,
    buyer: { otherOrders: row.other_orders, refundedOrders: row.refunded_orders },
    client:
      row.client_hash === null
        ? null
        : {
            hash: row.client_hash.slice(0, HASH_SHOWN),
            ordersLastDay: row.client_orders ?? 0,
            emailsLastDay: row.client_emails ?? 0,
          },
  }));
}

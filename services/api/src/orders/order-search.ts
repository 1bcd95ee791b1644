import { customerEmailKey, orderStatusSchema } from '@licensestore/shared';
import type { Database } from '@licensestore/shared/db';
import { storableText } from '@licensestore/shared/text';
import type { ExpressionBuilder } from 'kysely';
import { z } from 'zod';
import { isUuid } from '../http/ids.js';
import { containing, isWholeEmailAddress, searchTermSchema } from '../http/search.js';

const STATUSES = orderStatusSchema.options;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A UTC day (`2026-11-26`) as the instant it starts. */
const day = (field: 'from' | 'to') =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date like 2026-11-26' })
    .transform((text, ctx) => {
      const start = new Date(`${text}T00:00:00.000Z`);
      if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== text) {
        ctx.addIssue({ code: 'custom', message: `${text} is no date`, path: [] });
        return z.NEVER;
      }
      // `to` names the last day included: orders before the next day's start.
      return field === 'to' ? new Date(start.getTime() + DAY_MS) : start;
    })
    .optional();

/**
 * The orders list's filters: status, placed from / to (UTC days, both included), one customer's e-mail, and a
 * search `q` for an order number (`#1A2B3C4D` or part of it from the start), an order id, a PayPal order id,
 * or part of the customer's name or e-mail address.
 */
export const orderListFiltersSchema = z
  .object({
    status: z.enum(STATUSES, { error: `must be one of ${STATUSES.join(', ')}` }).optional(),
    from: day('from'),
    to: day('to'),
    customer: storableText({ max: 320 }).optional(),
    q: searchTermSchema,
  })
  .refine((filters) => !filters.from || !filters.to || filters.from < filters.to, {
    error: 'must not be before from',
    path: ['to'],
  });
export type OrderListFilters = z.output<typeof orderListFiltersSchema>;

const HEX_PREFIX = /^[0-9a-f]{1,8}$/i;

/**
 * Orders a search term finds, each way through an index: an id prefix is a range of the primary key, a PayPal id
 * its unique index, a whole e-mail address the customer's key, part of a name or e-mail address the trigram indexes.
 */
export function orderSearch(eb: ExpressionBuilder<Database, 'orders'>, q: string) {
  if (isWholeEmailAddress(q)) return eb('orders.customer_email_key', '=', customerEmailKey(q));
  const term = q.replace(/^#/, '');
  const found = [
    eb('orders.paypal_order_id', 'in', [term, term.toUpperCase()]),
    eb('orders.customer_name', 'ilike', containing(term)),
    eb('orders.customer_email', 'ilike', containing(term)),
  ];
  if (isUuid(term)) found.push(eb('orders.id', '=', term.toLowerCase()));
  if (HEX_PREFIX.test(term)) {
    const prefix = term.toLowerCase();
    found.push(
      eb.between(
        'orders.id',
        `${prefix.padEnd(8, '0')}-0000-0000-0000-000000000000`,
        `${prefix.padEnd(8, 'f')}-ffff-ffff-ffff-ffffffffffff`,
      ),
    );
  }
  return eb.or(found);
}

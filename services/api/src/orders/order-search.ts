import { customerEmailKey } from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import type { ExpressionBuilder } from 'kysely';
import { isUuid } from '../http/ids.js';
import { containing, isWholeEmailAddress } from '../http/search.js';

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

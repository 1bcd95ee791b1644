import type { OrderListFilters } from '@licensestore/contract/orders';
import type { Page } from '@licensestore/contract/paging';
import type { OrderView } from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { PageParams } from '../http/paging.js';
import { ORDER_KEYSET, type OrderSort, orderListQuery, pageOrders } from './queries.js';

/** A page of the back office's orders list, with where it stands among the orders the filters find. */
export interface CountedOrderPage extends Page<OrderView> {
  /** How many orders the filters find. */
  total: number;
  /** How many of them come before this page in its sort order (its first row is number offset + 1). */
  offset: number;
}

/** The value an order is sorted by, as the page shows it (a timestamp's ISO text, a decimal's text). */
const SORT_VALUE: Record<OrderSort, (order: OrderView) => string> = {
  createdAt: (order) => order.createdAt,
  total: (order) => order.total,
};

/**
 * One page of orders with how many the filters find and how many precede the page: two counts on the orders read
 * table with the list's own filters (the second bounded by the page's first row, as the keyset orders rows), so
 * the list can say "Showing 21–40 of 312 orders" however the admin reached the page.
 */
export async function countedOrderPage(
  db: Kysely<Database>,
  filters: OrderListFilters,
  params: PageParams<OrderSort>,
): Promise<CountedOrderPage> {
  const page = await pageOrders(db, filters, params);
  const count = async (before?: OrderView) => {
    let query = orderListQuery(db, filters).clearSelect();
    if (before) {
      const column = ORDER_KEYSET.sorts[params.sort].column;
      const operator = params.dir === 'desc' ? '>' : '<';
      const earlier = sql<SqlBool>`(${sql.ref(column)}, ${sql.ref(ORDER_KEYSET.id.column)}) ${sql.raw(operator)} (${SORT_VALUE[params.sort](before)}, ${before.id})`;
      query = query.where(() => earlier);
    }
    const row = await query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  };
  const first = page.items[0];
  const [total, offset] = await Promise.all([count(), first ? count(first) : Promise.resolve(0)]);
  return { ...page, total, offset };
}

import type { CustomerListFilters, CustomerView } from '@licensestore/contract/customers';
import { customerEmailKey } from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import type { Kysely, Selectable } from 'kysely';
import { type Keyset, keysetPage, mapPage, type PageParams } from '../http/paging.js';
import { containing, isWholeEmailAddress } from '../http/search.js';

const CUSTOMER_COLUMNS = [
  'email_key',
  'email',
  'name',
  'order_count',
  'total_spent',
  'last_order_at',
] as const;
type CustomerRow = Pick<Selectable<Database['customers']>, (typeof CUSTOMER_COLUMNS)[number]>;

const toCustomer = (row: CustomerRow): CustomerView => ({
  email: row.email,
  name: row.name,
  orderCount: row.order_count,
  totalSpent: row.total_spent,
  lastOrderDate: row.last_order_at.toISOString(),
});

/** Every customer, the most recent buyer first. */
export async function listCustomers(db: Kysely<Database>): Promise<CustomerView[]> {
  const rows = await db
    .selectFrom('customers')
    .select(CUSTOMER_COLUMNS)
    .orderBy('last_order_at', 'desc')
    .orderBy('email_key')
    .execute();
  return rows.map(toCustomer);
}

/** The customer who orders with this address (any case, surrounding blanks ignored), or null. */
export async function findCustomer(db: Kysely<Database>, email: string): Promise<CustomerView | null> {
  const row = await db
    .selectFrom('customers')
    .select(CUSTOMER_COLUMNS)
    .where('email_key', '=', customerEmailKey(email))
    .executeTakeFirst();
  return row ? toCustomer(row) : null;
}

export type CustomerSort = 'lastOrderDate' | 'totalSpent' | 'name';

/** The back office's customers list: the most recent buyer first unless asked otherwise; each sort has its index. */
export const CUSTOMER_KEYSET: Keyset<CustomerRow, CustomerSort> = {
  sorts: {
    lastOrderDate: { column: 'customers.last_order_at', type: 'timestamp', of: (row) => row.last_order_at },
    totalSpent: { column: 'customers.total_spent', type: 'decimal', of: (row) => row.total_spent },
    name: { column: 'customers.name', type: 'text', of: (row) => row.name },
  },
  id: { column: 'customers.email_key', type: 'text', of: (row) => row.email_key },
  defaultSort: 'lastOrderDate',
  defaultDir: 'desc',
};

/** The customers matching the filters, selected as the list shows them (ordering and paging are the caller's). */
export function customerListQuery(db: Kysely<Database>, { q }: CustomerListFilters) {
  const query = db.selectFrom('customers').select(CUSTOMER_COLUMNS);
  if (!q) return query;
  if (isWholeEmailAddress(q)) return query.where('customers.email_key', '=', customerEmailKey(q));
  return query.where((eb) =>
    eb.or([eb('customers.name', 'ilike', containing(q)), eb('customers.email', 'ilike', containing(q))]),
  );
}

/** One page of the customers matching the filters. */
export async function pageCustomers(
  db: Kysely<Database>,
  filters: CustomerListFilters,
  page: PageParams<CustomerSort>,
) {
  return mapPage(await keysetPage(customerListQuery(db, filters), CUSTOMER_KEYSET, page), toCustomer);
}

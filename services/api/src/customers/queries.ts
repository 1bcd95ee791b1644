import type { Database } from '@licensestore/shared/db';
import type { Kysely } from 'kysely';

/** A customer as the back office shows it (spec section 3): derived from orders, grouped by e-mail. */
export interface CustomerView {
  email: string;
  name: string;
  orderCount: number;
  /** Money kept from the customer's orders (cancelled and refunded ones left out), a decimal string. */
  totalSpent: string;
  lastOrderDate: string;
}

/** Every customer, the most recent buyer first. */
export async function listCustomers(db: Kysely<Database>): Promise<CustomerView[]> {
  const rows = await db
    .selectFrom('customers')
    .select(['email', 'name', 'order_count', 'total_spent', 'last_order_at'])
    .orderBy('last_order_at', 'desc')
    .orderBy('email_key')
    .execute();
  return rows.map((row) => ({
    email: row.email,
    name: row.name,
    orderCount: row.order_count,
    totalSpent: row.total_spent,
    lastOrderDate: row.last_order_at.toISOString(),
  }));
}

// The back office's customers (GET /api/admin/customers, GET /api/admin/customers/:email).

/**
 * A customer as the back office shows it: derived from the orders PayPal did not decline (a buyer whose every payment
 * was declined bought nothing and is no customer), grouped by email address.
 */
export interface CustomerView {
  email: string;
  name: string;
  orderCount: number;
  /** Money kept from the customer's orders (declined, cancelled and refunded ones left out), a decimal string. */
  totalSpent: string;
  lastOrderDate: string;
}

// The back office's customers (GET /api/admin/customers, GET /api/admin/customers/:email).
import { z } from 'zod';
import { searchTermSchema } from './search.js';

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

/**
 * GET /api/admin/customers: the list's filter beside the paging parameters, `q`, a whole e-mail address (its key) or
 * part of the name or address (trigrams).
 */
export const customerListFiltersSchema = z.object({ q: searchTermSchema });
export type CustomerListFilters = z.output<typeof customerListFiltersSchema>;

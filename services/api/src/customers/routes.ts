import { customerListFiltersSchema } from '@licensestore/contract/customers';
import { NotFoundError } from '@licensestore/domain';
import type { Database } from '@licensestore/platform/db';
import { type Response, Router } from 'express';
import type { Kysely } from 'kysely';
import { requireBackOffice } from '../auth/guards.js';
import { parsePageQuery } from '../http/paging.js';
import { parseRequest } from '../http/validation.js';
import { CUSTOMER_KEYSET, findCustomer, listCustomers, pageCustomers } from './queries.js';

/** Customers are names and e-mail addresses: no cache anywhere keeps them. */
const privateJson = (res: Response, body: unknown) => {
  res.set('Cache-Control', 'no-store').json(body);
};

export function customerRoutes(db: Kysely<Database>): Router {
  const router = Router();
  router.get('/customers', requireBackOffice, async (_req, res) => {
    privateJson(res, await listCustomers(db));
  });

  // The back office's list: one page, searched and sorted by the server (GET /api/customers answers them all, as its first callers expect).
  router.get('/admin/customers', requireBackOffice, async (req, res) => {
    const page = parsePageQuery(CUSTOMER_KEYSET, req.query);
    privateJson(res, await pageCustomers(db, parseRequest(customerListFiltersSchema, req.query), page));
  });

  // A customer's page; their orders are GET /admin/orders?customer=<email>.
  router.get('/admin/customers/:email', requireBackOffice, async (req, res) => {
    const customer = await findCustomer(db, String(req.params.email));
    if (!customer) throw new NotFoundError('Customer not found');
    privateJson(res, customer);
  });
  return router;
}

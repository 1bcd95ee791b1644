import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShadows, dropShadows, verifySchema } from '../src/audit/shadow.js';
import { createProjectorTables } from '../src/projector.js';
import { allProjectors } from '../src/projectors.js';
import { openTestReadModel } from './support/harness.js';

type Env = Awaited<ReturnType<typeof openTestReadModel>>;

/** Columns, indexes and constraints of a table, with the schema name (quoted when it must be) taken out. */
async function shape(env: Env, schema: string, table: string) {
  const columns = await sql`
    SELECT column_name, data_type, numeric_precision, numeric_scale, is_nullable, column_default
      FROM information_schema.columns WHERE table_schema = ${schema} AND table_name = ${table}
     ORDER BY ordinal_position`.execute(env.db);
  const constraints = await sql`
    SELECT conname, pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = ${schema} AND t.relname = ${table} ORDER BY conname`.execute(env.db);
  return { columns: columns.rows, indexes: await indexes(env, schema, table), constraints: constraints.rows };
}

async function indexes(env: Env, schema: string, table: string) {
  const { rows } = await sql<{ indexname: string; indexdef: string }>`
    SELECT indexname, replace(replace(indexdef, ${`"${schema}".`}, ''), ${`${schema}.`}, '') AS indexdef
      FROM pg_indexes
     WHERE schemaname = ${schema} AND tablename = ${table} ORDER BY indexname`.execute(env.db);
  return rows;
}

describe("the projectors' tables", () => {
  let env: Env;

  beforeAll(async () => {
    env = await openTestReadModel();
  });
  afterAll(() => env.close());

  it('are made by each projector, readers’ indexes included, as the migrations make them', async () => {
    for (const projector of allProjectors) {
      const schema = `ddl_${projector.name.replaceAll('-', '_')}`;
      await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(env.db);
      await createProjectorTables(env.db, projector, schema);
      for (const table of projector.tables) {
        expect({ table, ...(await shape(env, schema, table)) }).toEqual({
          table,
          ...(await shape(env, 'public', table)),
        });
      }
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(env.db);
    }
  });

  // A GIN index queues new entries in a pending list that every search reads whole: at Postgres's default of 4 MB,
  // a busy customers table's name search took 95 ms instead of 4 (a scratch table of 333,333 customers, 3 % updated).
  it('keep the pending list of every trigram index small, so a search never reads megabytes of queued entries', async () => {
    const { rows } = await sql<{ index: string; options: string[] | null }>`
      SELECT c.relname AS index, c.reloptions AS options
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am am ON am.oid = c.relam
       WHERE n.nspname = 'public' AND am.amname = 'gin' ORDER BY c.relname`.execute(env.db);
    expect(rows.map((row) => row.index)).toEqual([
      'customers_email_trgm_idx',
      'customers_name_trgm_idx',
      'orders_customer_email_trgm_idx',
      'orders_customer_name_trgm_idx',
    ]);
    for (const row of rows) expect(row.options, row.index).toEqual(['gin_pending_list_limit=256']);
  });

  // A shadow without an index a projector's writes look rows up by would be read whole once per batch: a verify
  // of a year's log would take hours. One with the readers' indexes would keep up each of them row by row.
  it("have in a verification's shadow their keys and the indexes the projectors' writes read by, nothing else", async () => {
    await createShadows(env.db, allProjectors);
    try {
      const kept: Record<string, string[]> = {};
      for (const projector of allProjectors) {
        for (const table of projector.tables) {
          kept[table] = (await indexes(env, verifySchema(projector), table)).map((index) => index.indexname);
        }
      }
      expect(kept).toEqual({
        audit_log: ['audit_log_pkey'],
        audit_log_products: ['audit_log_products_pkey'],
        customer_orders: ['customer_orders_pkey'],
        customers: ['customers_pkey'],
        dashboard_customers: ['dashboard_customers_pkey'],
        dashboard_licence_keys: ['dashboard_licence_keys_pkey'],
        dashboard_orders: ['dashboard_orders_pkey'],
        dashboard_products: ['dashboard_products_pkey'],
        dashboard_stats: ['dashboard_stats_pkey'],
        key_history: ['key_history_order_idx', 'key_history_pkey'],
        licence_key_stock: ['licence_key_stock_pkey'],
        licence_keys: ['licence_keys_pkey'],
        order_items: ['order_items_order_id_idx', 'order_items_pkey'],
        order_refunds: ['order_refunds_pkey'],
        orders: ['orders_paypal_order_id_key', 'orders_pkey', 'orders_receipt_number_key'],
        products: ['products_pkey'],
      });
    } finally {
      await dropShadows(env.db, allProjectors);
    }
  });
});

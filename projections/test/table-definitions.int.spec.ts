import { openDatabase } from '@licensestore/platform/db';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/support/database.js';
import { createShadows, dropShadows, verifySchema } from '../src/audit/shadow.js';
import { ensureCheckpoint } from '../src/checkpoints.js';
import { migrateReadModel, readModelMigrator } from '../src/migrations/index.js';
import { productsProjector } from '../src/products/projector.js';
import { createProjectorTables, type Projector } from '../src/projector.js';
import { allProjectors } from '../src/projectors.js';
import { runProjectors } from '../src/runner.js';
import { tableIn } from '../src/sql.js';
import { appendInBulk, catalogueHistory } from './support/catalogue.js';
import {
  expectProductsOfTheLog,
  recordingLogger,
  type TestReadModel,
  useTestReadModel,
} from './support/harness.js';

type Db = TestReadModel['db'];

const projectorTables = allProjectors.flatMap((projector) => projector.tables);

async function tablesIn(db: Db, schema: string, tables: readonly string[]) {
  const { rows } = await sql<{ tablename: string }>`
    SELECT tablename FROM pg_tables WHERE schemaname = ${schema} AND tablename = ANY(${tables}::text[])
     ORDER BY tablename`.execute(db);
  return rows.map((row) => row.tablename);
}

/** Columns, indexes and constraints of a table, with the schema name (quoted when it must be) taken out. */
async function shape(db: Db, schema: string, table: string) {
  const columns = await sql`
    SELECT column_name, data_type, numeric_precision, numeric_scale, is_nullable, column_default
      FROM information_schema.columns WHERE table_schema = ${schema} AND table_name = ${table}
     ORDER BY ordinal_position`.execute(db);
  const constraints = await sql`
    SELECT conname, pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = ${schema} AND t.relname = ${table} ORDER BY conname`.execute(db);
  return { columns: columns.rows, indexes: await indexes(db, schema, table), constraints: constraints.rows };
}

async function indexes(db: Db, schema: string, table: string) {
  const { rows } = await sql<{ indexname: string; indexdef: string }>`
    SELECT indexname, replace(replace(indexdef, ${`"${schema}".`}, ''), ${`${schema}.`}, '') AS indexdef
      FROM pg_indexes
     WHERE schemaname = ${schema} AND tablename = ${table} ORDER BY indexname`.execute(db);
  return rows;
}

/** A database of its own, for what a test must see happen to a store from its very first migration. */
async function withNewDatabase(run: (db: Db) => Promise<void>) {
  const database = openDatabase(await createTestDatabase());
  try {
    await run(database.db);
  } finally {
    await database.close();
  }
}

/**
 * A store the earlier migrations made, as far as this test needs one: their ledger, up to `lastMigration`, and
 * the products projector's checkpoint at `position`.
 */
async function earlierStore(db: Db, lastMigration: string, position: string) {
  await sql`CREATE TABLE kysely_migration (name varchar(255) PRIMARY KEY, timestamp varchar(255) NOT NULL)`.execute(
    db,
  );
  await sql`INSERT INTO kysely_migration VALUES (${lastMigration}, now()::text)`.execute(db);
  await sql`
    CREATE TABLE projection_checkpoints (
      name text PRIMARY KEY, position text, version integer NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  );
  await ensureCheckpoint(db, 'products', productsProjector.version);
  await db.updateTable('projection_checkpoints').set({ position }).execute();
}

const checkpoints = async (db: Db) =>
  db.selectFrom('projection_checkpoints').select(['name', 'position', 'version']).orderBy('name').execute();

describe("the projectors' tables", () => {
  const env = useTestReadModel();

  it("are made by no migration: the read schema's migrations leave every one of them to its projector", async () => {
    await withNewDatabase(async (db) => {
      const { error } = await readModelMigrator(db).migrateToLatest();
      expect(error).toBeUndefined();
      expect(await tablesIn(db, 'public', projectorTables)).toEqual([]);
    });
  });

  it("are made on a new store by each projector's definition, readers' indexes included", async () => {
    for (const projector of allProjectors) {
      const schema = `ddl_${projector.name.replaceAll('-', '_')}`;
      await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(env.db);
      await createProjectorTables(env.db, projector, schema);
      for (const table of projector.tables) {
        expect({ table, ...(await shape(env.db, 'public', table)) }).toEqual({
          table,
          ...(await shape(env.db, schema, table)),
        });
      }
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(env.db);
    }
  });

  it('are made once when two processes start on a new store at the same moment', async () => {
    await withNewDatabase(async (db) => {
      await Promise.all([migrateReadModel(db), migrateReadModel(db)]);
      expect(await tablesIn(db, 'public', projectorTables)).toEqual([...projectorTables].sort());
    });
  });

  it('stay as they are, rows and all, when the read schema is migrated again', async () => {
    await sql`INSERT INTO testimonials (customer_name, rating, comment, location, date)
              VALUES ('Ada', 5, 'Fast', 'London', '2026-12-01')`.execute(env.db);
    await sql`INSERT INTO dashboard_products VALUES (gen_random_uuid(), true)`.execute(env.db);
    await migrateReadModel(env.db);
    const kept = await sql<{ count: number }>`
      SELECT (SELECT count(*) FROM testimonials)::int + (SELECT count(*) FROM dashboard_products)::int AS count`.execute(
      env.db,
    );
    expect(kept.rows[0]?.count).toBe(2);
  });

  describe('on a store the earlier migrations made', () => {
    it('are kept, with their checkpoints, when those migrations all ran', async () => {
      await withNewDatabase(async (db) => {
        await earlierStore(db, '2026_12_06_070_count_paid_orders', 'p1');
        await migrateReadModel(db);
        expect(await checkpoints(db)).toEqual([
          { name: 'products', position: 'p1', version: productsProjector.version },
        ]);
      });
    });

    it("are rebuilt from the log, every projector's, when those migrations stopped short of their last", async () => {
      await withNewDatabase(async (db) => {
        await earlierStore(db, '2026_11_26_050_add_product_key_format', 'p1');
        await migrateReadModel(db);
        expect(await checkpoints(db)).toEqual(
          allProjectors
            .map((projector) => ({
              name: projector.name,
              position: projector.name === 'products' ? 'p1' : null,
              version: 0,
            }))
            .sort((a, b) => a.name.localeCompare(b.name)),
        );
      });
    });
  });

  it('keep their rows and checkpoint on a store that named them with the earlier spelling, "licence"', async () => {
    await withNewDatabase(async (db) => {
      await migrateReadModel(db);
      const made = await shape(db, 'public', 'license_keys');
      const keyId = '00000000-0000-4000-8000-000000000001';
      await sql`INSERT INTO license_keys (id, product_id, key_sealed, fingerprint, status, added_at)
                VALUES (${keyId}, ${keyId}, 'sealed', 'print', 'available', now())`.execute(db);
      await ensureCheckpoint(db, 'license-keys', 2);
      // The store as the earlier code left it: every name spelt "licence", the renaming migration not yet run.
      const renamed = await sql<{ name: string; kind: string }>`
        SELECT relname AS name, relkind AS kind FROM pg_class
         WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'i') AND relname LIKE '%license%'`.execute(
        db,
      );
      for (const { name, kind } of renamed.rows) {
        await sql`ALTER ${sql.raw(kind === 'r' ? 'TABLE' : 'INDEX')} ${sql.id(name)}
                  RENAME TO ${sql.id(name.replaceAll('license', 'licence'))}`.execute(db);
      }
      await sql`UPDATE projection_checkpoints SET name = 'licence-keys' WHERE name = 'license-keys'`.execute(
        db,
      );
      await sql`DELETE FROM read_model_migrations WHERE name = '2026_12_06_002_license_spelling'`.execute(db);

      await migrateReadModel(db);
      expect(await shape(db, 'public', 'license_keys')).toEqual(made);
      expect(
        await tablesIn(db, 'public', ['licence_keys', 'licence_key_stock', 'dashboard_licence_keys']),
      ).toEqual([]);
      const kept = await sql<{ id: string }>`SELECT id FROM license_keys`.execute(db);
      expect(kept.rows).toEqual([{ id: keyId }]);
      expect((await checkpoints(db)).map((checkpoint) => checkpoint.name)).toContain('license-keys');
    });
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
          kept[table] = (await indexes(env.db, verifySchema(projector), table)).map(
            (index) => index.indexname,
          );
        }
      }
      expect(kept).toEqual({
        audit_log: ['audit_log_pkey'],
        audit_log_products: ['audit_log_products_pkey'],
        customer_orders: ['customer_orders_pkey'],
        customers: ['customers_pkey'],
        dashboard_customers: ['dashboard_customers_pkey'],
        dashboard_license_keys: ['dashboard_license_keys_pkey'],
        dashboard_orders: ['dashboard_orders_pkey'],
        dashboard_products: ['dashboard_products_pkey'],
        dashboard_stats: ['dashboard_stats_pkey'],
        key_history: ['key_history_order_idx', 'key_history_pkey'],
        license_key_stock: ['license_key_stock_pkey'],
        license_keys: ['license_keys_pkey'],
        order_items: ['order_items_order_id_idx', 'order_items_pkey'],
        order_refunds: ['order_refunds_pkey'],
        orders: [
          'orders_client_hash_idx',
          'orders_paypal_order_id_key',
          'orders_pkey',
          'orders_receipt_number_key',
        ],
        products: ['products_pkey'],
      });
    } finally {
      await dropShadows(env.db, allProjectors);
    }
  });

  it("take a changed definition from the log when their projector's version is bumped, with no migration", async () => {
    await appendInBulk(env.pool, catalogueHistory({ products: 20, events: 60, seed: 3 }), {
      eventsPerTransaction: 60,
    });
    await ensureCheckpoint(env.db, productsProjector.name, productsProjector.version);
    const changed: Projector = {
      ...productsProjector,
      version: productsProjector.version + 1,
      async createTables(db, schema) {
        await productsProjector.createTables(db, schema);
        await sql`ALTER TABLE ${tableIn(schema, 'products')} ADD COLUMN badge text`.execute(db);
      },
    };
    const log = recordingLogger();
    const stopping = new AbortController();
    const running = runProjectors({
      ...env,
      projectors: [changed],
      log: log.logger,
      signal: stopping.signal,
    });
    try {
      await log.waitFor('rebuild swapped in', 20_000);
    } finally {
      stopping.abort();
      await running;
    }
    const { rows } = await sql`
      SELECT FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = 'products' AND column_name = 'badge'`.execute(env.db);
    expect(rows).toHaveLength(1);
    await expectProductsOfTheLog(env);
  });
});

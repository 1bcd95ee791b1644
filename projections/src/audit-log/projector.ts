import type { AuditTables, Database } from '@licensestore/platform/db';
import { projectorDescriptors } from '@licensestore/platform/readmodel';
import { type Kysely, sql } from 'kysely';
import type { Projector } from '../projector.js';
import { tableIn, writeFacts } from '../sql.js';
import { AUDIT_LOG_COLUMNS, auditLogRow, productsOf } from './rows.js';

/**
 * One row per event, keys withheld, for the back office's store-wide log and for following an order's
 * correlation without reading the whole log. Each filter has an index ending in `position`, so a filtered page
 * newest first is an index range read backwards from the cursor, however long the log (ADR 015).
 */
export const auditLogProjector: Projector = {
  ...projectorDescriptors.auditLog,
  tables: ['audit_log', 'audit_log_products'],
  sources: {
    audit_log: (row) => [{ stream: String(row.stream) }],
    audit_log_products: async (row, db) => {
      const event = await db
        .withTables<AuditTables>()
        .selectFrom('audit_log')
        .select('stream')
        .where('position', '=', String(row.position))
        .executeTakeFirst();
      return event ? [{ stream: event.stream }] : [];
    },
  },

  async createTables(db: Kysely<Database>, schema: string) {
    const log = tableIn(schema, 'audit_log');
    await sql`
      CREATE TABLE ${log} (
        position       text PRIMARY KEY,
        event_id       text NOT NULL,
        stream         text NOT NULL,
        revision       bigint NOT NULL,
        type           text NOT NULL,
        recorded_at    timestamptz NOT NULL,
        actor_type     text NOT NULL,
        actor_id       text NOT NULL,
        correlation_id text NOT NULL,
        causation_id   text NOT NULL,
        order_id       uuid,
        data           jsonb NOT NULL
      )`.execute(db);
    await sql`
      CREATE TABLE ${tableIn(schema, 'audit_log_products')} (
        product_id uuid NOT NULL,
        position   text NOT NULL,
        PRIMARY KEY (product_id, position)
      )`.execute(db);
  },

  readerIndexes: (schema) => {
    const log = tableIn(schema, 'audit_log');
    return [
      sql`CREATE INDEX audit_log_type_idx ON ${log} (type, position)`,
      sql`CREATE INDEX audit_log_actor_idx ON ${log} (actor_id, position)`,
      sql`CREATE INDEX audit_log_order_idx ON ${log} (order_id, position) WHERE order_id IS NOT NULL`,
      sql`CREATE INDEX audit_log_correlation_idx ON ${log} (correlation_id, position)`,
      sql`CREATE INDEX audit_log_recorded_at_idx ON ${log} (recorded_at, position)`,
    ];
  },

  async apply(trx, events, context) {
    await writeFacts(trx, context, {
      table: 'audit_log',
      key: ['position'],
      columns: AUDIT_LOG_COLUMNS,
      json: 'data',
      rows: events.map(auditLogRow),
    });
    await writeFacts(trx, context, {
      table: 'audit_log_products',
      key: ['product_id', 'position'],
      columns: ['product_id', 'position'],
      rows: events.flatMap((event) => productsOf(event).map((productId) => [productId, event.position])),
    });
  },
};

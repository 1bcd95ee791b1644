import { type Kysely, sql } from 'kysely';

// Frozen: a change to the read schema is a new migration.
// Every search reads a GIN index's pending list whole; Postgres's default lets it grow to 4 MB, which made a busy
// customers table's name search 20 times slower. The back office's trigram indexes keep theirs to 256 kB.

const TRIGRAM_INDEXES = [
  'orders_customer_name_trgm_idx',
  'orders_customer_email_trgm_idx',
  'customers_name_trgm_idx',
  'customers_email_trgm_idx',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their day, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  for (const index of TRIGRAM_INDEXES) {
    await sql`ALTER INDEX ${sql.id(index)} SET (gin_pending_list_limit = 256)`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const index of TRIGRAM_INDEXES) {
    await sql`ALTER INDEX ${sql.id(index)} RESET (gin_pending_list_limit)`.execute(db);
  }
}

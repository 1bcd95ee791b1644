import { type Kysely, sql } from 'kysely';

// Frozen: a migration that has run never changes; add a new file instead.

/** Every user so far was an admin; auditors, who may read but not change anything, are added from now on. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('admin_users')
    .addColumn('role', 'text', (col) =>
      col.notNull().defaultTo('admin').check(sql`role IN ('admin', 'auditor')`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('admin_users').dropColumn('role').execute();
}

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type CopyRow, copyData, copyInto } from '@licensestore/platform/copy-rows';
import type { Database } from '@licensestore/platform/db';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type pg from 'pg';

/** Rows of text (null for SQL NULL), each value in its column's input format, streamed into a table with COPY. */
export type CopyRows = (
  schema: string,
  table: string,
  columns: readonly string[],
  rows: readonly CopyRow[],
) => Promise<void>;

const copyWith =
  (client: pg.PoolClient): CopyRows =>
  async (schema, table, columns, rows) => {
    await pipeline(Readable.from([copyData(rows)]), copyInto(client, schema, table, columns));
  };

/**
 * A Kysely transaction on a connection of `pool` held for it alone, with a way to stream rows into tables over
 * that same connection (Kysely has no way to send COPY's data), so they commit or roll back with the rest.
 */
export async function transactionWithCopy<T>(
  pool: pg.Pool,
  work: (trx: Transaction<Database>, copy: CopyRows) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    const onlyThisClient = {
      connect: async () => ({ query: client.query.bind(client), release: () => {} }),
      end: async () => {},
    };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: onlyThisClient }) });
    return await db.transaction().execute((trx) => work(trx, copyWith(client)));
  } finally {
    client.release();
  }
}

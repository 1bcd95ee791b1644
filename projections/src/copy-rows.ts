import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Database } from '@licensestore/shared/db';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** Rows of text (null for SQL NULL), each value in its column's input format, streamed into a table with COPY. */
export type CopyRows = (
  schema: string,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
) => Promise<void>;

const ESCAPED = /[\\\n\r\t]/;
const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** SQL NULL in COPY's text format. */
const NULL_TEXT = '\\N';

/** A value in COPY's text format: a backslash and the characters that end a value or a row are escaped. */
const copyValue = (value: string | null) =>
  value === null
    ? NULL_TEXT
    : ESCAPED.test(value)
      ? value.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c] as string)
      : value;

const TAB = 0x09;
const NEWLINE = 0x0a;
/**
 * The most bytes one UTF-16 code unit of a value takes on the wire: an escaped character becomes two ASCII bytes,
 * and UTF-8 spends at most three on any other (four on a surrogate pair, which is two units).
 */
const MAX_BYTES_PER_UNIT = 3;

/**
 * Rows in COPY's text format: values apart by tabs, each row ended by a newline. Each value is written straight
 * into one buffer sized for the worst case: joining the rows into a string and then encoding it took twice as long,
 * and was the largest item of a rebuild's own CPU.
 */
function copyData(rows: ReadonlyArray<ReadonlyArray<string | null>>): Buffer {
  let bound = 0;
  for (const row of rows) {
    for (const value of row) bound += (value ?? NULL_TEXT).length * MAX_BYTES_PER_UNIT + 1;
  }
  const data = Buffer.allocUnsafe(bound);
  let length = 0;
  for (const row of rows) {
    row.forEach((value, at) => {
      if (at > 0) data[length++] = TAB;
      length += data.write(copyValue(value), length);
    });
    data[length++] = NEWLINE;
  }
  return data.subarray(0, length);
}

const copyWith =
  (client: pg.PoolClient): CopyRows =>
  async (schema, table, columns, rows) => {
    const target = `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)}`;
    const names = columns.map((column) => pg.escapeIdentifier(column)).join(', ');
    await pipeline(
      Readable.from([copyData(rows)]),
      client.query(copyFrom(`COPY ${target} (${names}) FROM STDIN`)),
    );
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

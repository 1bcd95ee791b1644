import type { Writable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** A row for COPY: each value in its column's input format, null for SQL NULL. */
export type CopyRow = ReadonlyArray<string | null>;

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
export function copyData(rows: readonly CopyRow[]): Buffer {
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

/**
 * A `COPY schema.table (columns) FROM STDIN` on `client`, as a stream taking `copyData`'s buffers; ending it ends
 * the COPY, destroying it cancels the COPY (the server rolls back what it took).
 */
export const copyInto = (
  client: pg.ClientBase,
  schema: string,
  table: string,
  columns: readonly string[],
): Writable => {
  const target = `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)}`;
  const names = columns.map((column) => pg.escapeIdentifier(column)).join(', ');
  return client.query(copyFrom(`COPY ${target} (${names}) FROM STDIN`));
};

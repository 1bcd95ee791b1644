import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { transactionWithCopy } from '../src/copy-rows.js';
import { type Facts, tableIn, writeFacts } from '../src/sql.js';
import { recordingLogger, useTestReadModel } from './support/harness.js';

/**
 * Text that COPY's format would misread unescaped (its separators, its escape character and its NULL marker), and
 * text that grows most on its way to the wire (escaped: two bytes a character; encoded: three), long enough that
 * what the other values leave spare of the buffer's room cannot cover it.
 */
const AWKWARD = [
  'tab\there',
  'line\nbreak',
  'carriage\rreturn',
  'back\\slash',
  '\\N',
  '\\',
  'ünïcödé ✓',
  '',
  '\\'.repeat(10_000),
  '€'.repeat(10_000),
];

describe('writeFacts', () => {
  const env = useTestReadModel();
  const log = recordingLogger().logger;

  /** A schema of its own with one facts table. */
  async function factsTable() {
    const schema = `facts_${randomUUID().replaceAll('-', '')}`;
    await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(env.db);
    await sql`
      CREATE TABLE ${tableIn(schema, 'facts')} (
        id       text PRIMARY KEY,
        label    text NOT NULL,
        order_id uuid,
        at       timestamptz NOT NULL,
        details  jsonb NOT NULL
      )`.execute(env.db);
    return schema;
  }

  const facts = (ids: string[]): Facts => ({
    table: 'facts',
    key: ['id'],
    columns: ['id', 'label', 'order_id', 'at', 'details'],
    json: 'details',
    rows: ids.map((id, at) => [
      id,
      AWKWARD[at % AWKWARD.length] as string,
      at % 2 === 0 ? randomUUID() : null,
      new Date(Date.UTC(2026, 0, 1, 0, 0, at, 123)).toISOString(),
      JSON.stringify({ text: AWKWARD[at % AWKWARD.length], list: [at, null, true], nested: { back: '\\' } }),
    ]),
  });

  const stored = async (schema: string) =>
    (
      await sql<Record<string, unknown>>`
        SELECT id, label, order_id, at, details FROM ${tableIn(schema, 'facts')} ORDER BY id`.execute(env.db)
    ).rows;

  it('stores the same rows through COPY as through the insert, whatever characters the text holds', async () => {
    const [copied, inserted] = [await factsTable(), await factsTable()];
    const written = facts(AWKWARD.map((_, at) => `fact-${at}`));
    await transactionWithCopy(env.pool, (trx, copy) =>
      writeFacts(trx, { schema: copied, log, copy }, written),
    );
    await env.db.transaction().execute((trx) => writeFacts(trx, { schema: inserted, log }, written));

    const rows = await stored(copied);
    expect(rows).toEqual(await stored(inserted));
    expect(rows.map((row) => row.label)).toEqual(written.rows.map((row) => row[1]));
    expect(rows.map((row) => row.details)).toEqual(written.rows.map((row) => JSON.parse(row[4] as string)));
    expect(rows.filter((row) => row.order_id === null)).toHaveLength(AWKWARD.length / 2);
  });

  it('skips rows already stored when inserting, and rolls the whole transaction back when COPY meets one', async () => {
    const schema = await factsTable();
    const first = facts(['a', 'b']);
    await env.db.transaction().execute((trx) => writeFacts(trx, { schema, log }, first));
    await env.db.transaction().execute((trx) => writeFacts(trx, { schema, log }, facts(['b', 'c'])));
    expect((await stored(schema)).map((row) => row.id)).toEqual(['a', 'b', 'c']);

    // A shadow is filled once from the log: a row met twice there is a fault, and nothing of its batch may stay.
    const copying = transactionWithCopy(env.pool, async (trx, copy) => {
      await sql`INSERT INTO ${tableIn(schema, 'facts')} VALUES ('d', 'd', NULL, now(), '{}')`.execute(trx);
      await writeFacts(trx, { schema, log, copy }, facts(['e', 'a']));
    });
    await expect(copying).rejects.toThrow(/duplicate key/);
    expect((await stored(schema)).map((row) => row.id)).toEqual(['a', 'b', 'c']);

    // The connection went back to the pool in a state to serve the next transaction.
    for (let round = 0; round < env.pool.options.max + 1; round++) {
      await transactionWithCopy(env.pool, (trx, copy) =>
        writeFacts(trx, { schema, log, copy }, facts([`next-${round}`])),
      );
    }
    expect(await stored(schema)).toHaveLength(3 + env.pool.options.max + 1);
  });
});

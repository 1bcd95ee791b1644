import type pg from 'pg';
import { expect } from 'vitest';

/**
 * Expects Postgres to answer `query` through `index`, reading the rows already in the page's order (no sort step).
 * Sequential scans are off while it plans: on a test's tiny tables the planner rightly scans them, which proves
 * nothing about a page of a large table.
 */
export async function expectReadInOrderThrough(pool: pg.Pool, query: string, index: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan, query).toContain(index);
    expect(plan, query).not.toMatch(/\bSort\b/);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

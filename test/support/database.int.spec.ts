import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './database.js';

describe('test databases', () => {
  it('gives each caller its own empty database', async () => {
    const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    expect(first).not.toEqual(second);
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'",
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });
});

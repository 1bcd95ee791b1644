import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { productStream } from '@licensestore/domain';
import { openEventStore } from '@licensestore/platform/eventstore';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningPostgres, startEmbeddedPostgres } from '../../scripts/stack/embedded-postgres.js';
import { openAdminPage } from './support/admin.js';
import { seriousA11yViolations } from './support/browser.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

let postgresDir: string;
let postgres: RunningPostgres;
let databaseUrl: string;

// The store on a Postgres of the test's own, so that the test can write to its log what no command writes.
beforeAll(async () => {
  postgresDir = await mkdtemp(join(tmpdir(), 'licensestore-e2e-pg-'));
  postgres = await startEmbeddedPostgres(postgresDir, () => {}, randomBytes(18).toString('base64url'));
  await postgres.createDatabase('store');
  databaseUrl = postgres.url('store');
});

afterAll(async () => {
  await postgres?.stop();
  if (postgresDir) await rm(postgresDir, { recursive: true, force: true });
});

const e2e = storeAndBrowserForThisFile(() => ({ DATABASE_URL: databaseUrl }));

describe('Parked events', () => {
  it('shows on the verify screen the event the log holds that does not read: where, what and why', async () => {
    const { page, close } = await openAdminPage(e2e.browser, e2e.store.url);
    try {
      await page.goto('/admin/audit/verify');
      await page.getByRole('heading', { level: 2, name: 'Every event of the log can be read' }).waitFor();

      const eventStore = await openEventStore({ databaseUrl });
      const id = randomUUID();
      const metadata = {
        actor: { type: 'admin', id: 'e2e' },
        correlationId: 'e2e',
        causationId: 'e2e',
      } as const;
      const { position } = await eventStore
        .append(
          productStream(id),
          [{ type: 'ProductDeleted', data: { productId: id, deletedAt: 'yesterday' }, metadata }],
          'no_stream',
        )
        .finally(() => eventStore.close());

      // The projectors park it on their own time; the card shows what there is when the screen opens.
      await vi.waitFor(
        async () => {
          await page.reload();
          await page
            .getByRole('heading', { level: 2, name: '1 event could not be read' })
            .waitFor({ timeout: 1_000 });
        },
        { timeout: 30_000, interval: 250 },
      );
      const row = page.getByRole('table', { name: 'Parked events' }).getByRole('row').nth(1);
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells.slice(0, 3)).toEqual([position, productStream(id), 'ProductDeleted']);
      expect(cells[3]).toContain('data.deletedAt');
      expect(cells[4]).toContain('products');
      expect(await seriousA11yViolations(page)).toEqual([]);
    } finally {
      await close();
    }
  });
});

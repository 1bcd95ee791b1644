import { describe, expect, it } from 'vitest';
import { openAdminPage } from './support/admin.js';
import { seriousA11yViolations } from './support/browser.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

const e2e = storeAndBrowserForThisFile();

describe('Verify read models', () => {
  it('starts a verification from the sidebar, follows it in the projections role and shows every table matching', async () => {
    const { page, close } = await openAdminPage(e2e.browser, e2e.store.url);
    try {
      await page.getByRole('link', { name: 'Verify Read Models' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/audit/verify');
      // The heading is cased as the menu item that leads to it.
      await page.getByRole('heading', { level: 1, name: 'Verify Read Models', exact: true }).waitFor();
      await page.getByText('No verification has run yet.').waitFor();

      await page.getByRole('button', { name: 'Start verification' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Every read model matches the replay of the event log.' })
        .waitFor({ timeout: 60_000 });

      const compared = page.getByRole('table', { name: 'Tables compared' });
      const products = compared.getByRole('row').filter({ hasText: 'products' }).first();
      const cells = await products.getByRole('cell').allTextContents();
      expect(cells.slice(0, 2)).toEqual(['products', 'products']);
      // As many rows live as replayed (the store seeds its catalogue), and nothing missing, extra or different.
      expect(Number(cells[2])).toBeGreaterThan(0);
      expect(cells.slice(3)).toEqual([cells[2], '0', '0', '0']);

      const recent = page.getByRole('table', { name: 'Recent verifications' });
      await recent.getByRole('row').filter({ hasText: 'Passed' }).waitFor();
      // Off the button just clicked: a hovered button's lighter shade is not what axe should judge.
      await page.mouse.move(0, 0);
      expect(await seriousA11yViolations(page)).toEqual([]);
    } finally {
      await close();
    }
  });
});

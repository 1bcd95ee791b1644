import { randomUUID } from 'node:crypto';
import type { DashboardView } from '@licensestore/domain';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { signInAsAdmin } from './support/admin.js';
import {
  hold,
  openPage,
  PHONE,
  seriousA11yViolations,
  type TestPage,
  toastSaying,
} from './support/browser.js';
import { shownMoney } from './support/money.js';
import { purchasableProducts, purchase, waitForLicenseKeys } from './support/purchases.js';
import { ADMIN_PASSWORD } from './support/store.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

/** Every admin screen the router knows, an order's page under Orders included. */
const ADMIN_PATHS = [
  '/admin',
  '/admin/login',
  '/admin/products',
  '/admin/orders',
  `/admin/orders/${randomUUID()}`,
  '/admin/customers',
  '/admin/license-keys',
];

const SIDEBAR_ITEMS = [
  { name: 'Dashboard', path: '/admin' },
  { name: 'Products', path: '/admin/products' },
  { name: 'Orders', path: '/admin/orders' },
  { name: 'Customers', path: '/admin/customers' },
  { name: 'License Keys', path: '/admin/license-keys' },
];

const SEVEN_DAYS_S = 7 * 24 * 60 * 60;
const SIDEBAR_WIDTH_PX = 256; // 16rem
const SIDEBAR_ICONS_WIDTH_PX = 48; // 3rem
const SHEET_WIDTH_PX = 288; // 18rem

const e2e = storeAndBrowserForThisFile();

async function waitForLoginScreen(page: Page) {
  await page.getByRole('heading', { name: 'Admin Login', level: 1 }).waitFor();
}

/** The dashboard as the signed-in page reads it. */
const readDashboard = (page: Page): Promise<DashboardView> =>
  page.evaluate(async () => (await fetch('/api/admin/dashboard')).json());

/** Holds every GET /api/admin/status until `release` is called, so the loading state can be seen. */
async function sidebarWidth(page: Page): Promise<number> {
  const box = await page.locator('aside#sidebar').boundingBox();
  if (!box) throw new Error('no sidebar on the page');
  return box.width;
}

async function sidebarCookie(page: Page) {
  return (await page.context().cookies()).find((cookie) => cookie.name === 'sidebar_state');
}

async function adminPage(
  options: { colorScheme?: 'light' | 'dark'; phone?: boolean } = {},
): Promise<TestPage> {
  const testPage = await openPage(e2e.browser, e2e.store.url, {
    colorScheme: options.colorScheme ?? 'light',
    ...(options.phone ? { viewport: PHONE, isMobile: true, hasTouch: true } : {}),
  });
  await signInAsAdmin(testPage.page);
  return testPage;
}

beforeAll(async () => {
  // Orders in three states, so the dashboard has figures, recent orders and every admin badge style to show.
  const [cheapest] = await purchasableProducts(e2e.store.url);
  if (!cheapest) throw new Error('the demo catalogue has nothing to buy');
  const orders = [];
  for (const customer of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing']) {
    const email = `${customer.split(' ')[0]?.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
    const order = await purchase(e2e.store.url, { name: customer, email }, [
      { product: cheapest, quantity: 1 },
    ]);
    await waitForLicenseKeys(e2e.store.url, order);
    orders.push(order);
  }
  const { page, close } = await adminPage();
  for (const [order, status] of [
    [orders[1], 'pending'],
    [orders[2], 'cancelled'],
  ] as const) {
    const answer = await page.evaluate(
      async ({ id, to }) =>
        (
          await fetch(`/api/orders/${id}/status`, {
            method: 'PATCH',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ status: to }),
          })
        ).status,
      { id: order?.id, to: status },
    );
    expect(answer).toBe(200);
  }
  // The counters come from a projector of their own: wait until they agree with the orders read model.
  await vi.waitFor(
    async () =>
      expect(await readDashboard(page)).toSatisfy(
        (dashboard: DashboardView) =>
          dashboard.totalOrders === 3 &&
          dashboard.recentOrders.some((order) => order.status === 'cancelled') &&
          dashboard.completedOrders ===
            dashboard.recentOrders.filter((order) => order.status === 'completed').length,
      ),
    { timeout: 30_000, interval: 100 },
  );
  await close();
});

describe('a visitor who is not an admin', () => {
  it.each(ADMIN_PATHS)('sees Loading..., then only the login screen, on %s', async (path) => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    const release = await hold(page, '**/api/admin/status');
    await page.goto(path);
    await page.getByRole('status').filter({ hasText: 'Loading...' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Admin Login' }).count()).toBe(0);
    release();

    await waitForLoginScreen(page);
    expect(await page.getByText('Enter your credentials to access the admin panel').isVisible()).toBe(true);
    expect(await page.getByLabel('Username').getAttribute('required')).not.toBeNull();
    expect(await page.getByLabel('Password').getAttribute('required')).not.toBeNull();
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
    expect(await page.getByRole('heading', { name: 'Admin Panel' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Management' }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(path);
    expect(await page.title()).toBe('Admin Login | LicenseStore');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
    expect(errors).toEqual([]);
    await close();
  });

  it('sees the 404 page on an admin path the router does not know', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/settings');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
    await close();
  });

  it('is refused with 401 by every admin API route', async () => {
    const id = randomUUID();
    const origin = new URL(e2e.store.url).origin;
    // From the server's routes: every handler behind requireAdmin, and the image upload.
    const routes: Array<[method: string, path: string, body?: unknown]> = [
      ['GET', '/api/admin/dashboard'],
      ['GET', '/api/orders'],
      ['PATCH', `/api/orders/${id}/status`, { status: 'completed' }],
      ['POST', `/api/orders/${id}/delivery-email`],
      ['GET', '/api/customers'],
      ['GET', '/api/admin/orders'],
      ['GET', '/api/admin/customers'],
      ['GET', '/api/admin/customers/ada%40example.com'],
      ['GET', '/api/license-keys'],
      ['GET', '/api/license-keys/stock'],
      ['POST', '/api/license-keys', { productId: id, key: 'ABCDE-FGHIJ-KLMNO-PQRST-UVWXY' }],
      ['POST', '/api/license-keys/import', { productId: id, keys: 'ABCDE-FGHIJ-KLMNO-PQRST-UVWXY' }],
      ['DELETE', `/api/license-keys/${id}`],
      ['POST', '/api/products', { name: 'Nope' }],
      ['PATCH', `/api/products/${id}`, { name: 'Nope' }],
      ['DELETE', `/api/products/${id}`],
      ['POST', '/api/objects/upload'],
    ];
    const answers = await Promise.all(
      routes.map(async ([method, path, body]) => {
        const response = await fetch(new URL(path, e2e.store.url), {
          method,
          // What the browser sends with a same-origin call; the store refuses mutations from other origins.
          headers: { origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return `${method} ${path} ${response.status} ${await response.text()}`;
      }),
    );
    expect(answers).toEqual(
      routes.map(([method, path]) => `${method} ${path} 401 {"error":"Authentication required"}`),
    );
  });
});

describe('admin login', () => {
  it('says Login failed with the server error on a wrong password, Logging in... while it waits', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('not-the-password');
    let releaseLogin = () => {};
    const loginHeld = new Promise<void>((resolve) => {
      releaseLogin = resolve;
    });
    await page.route('**/api/admin/login', async (route) => {
      await loginHeld;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Logging in...' }).waitFor();
    releaseLogin();

    await toastSaying(page, 'Login failed', 'Invalid credentials');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await close();
  });

  it("names an empty field beside it, in the app's style, before anything is sent; and leads back to the store", async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/login');
    let attempts = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/admin/login') attempts += 1;
    });
    await page.getByRole('button', { name: 'Login' }).click();
    const username = page.getByLabel('Username');
    await page.getByText('Please enter your username').waitFor();
    expect(await page.getByText('Please enter your password').isVisible()).toBe(true);
    expect(await username.getAttribute('aria-invalid')).toBe('true');
    // The field's own message, not the browser's bubble: the form is not left to the browser's validation.
    expect(await username.evaluate((input) => (input as HTMLInputElement).form?.noValidate)).toBe(true);
    expect(await username.evaluate((input) => input === document.activeElement)).toBe(true);

    await username.fill('admin');
    expect(await page.getByText('Please enter your username').count()).toBe(0);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Please enter your password').waitFor();
    expect(await page.getByLabel('Password').evaluate((input) => input === document.activeElement)).toBe(
      true,
    );
    expect(attempts).toBe(0);

    await page.getByRole('link', { name: 'Back to the store' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(errors).toEqual([]);
    await close();
  });

  it('says Error when the sign-in cannot reach the server', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/login');
    await page.route('**/api/admin/login', (route) => route.abort('connectionrefused'));
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('whatever-it-is');
    await page.getByRole('button', { name: 'Login' }).click();
    await toastSaying(page, 'Error', 'Failed to login. Please try again.');
    await close();
  });

  it('welcomes the admin and shows the dashboard with the figures of GET /api/admin/dashboard', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/admin/orders');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await toastSaying(page, 'Login successful', 'Welcome to admin panel');
    await page.waitForURL((url) => url.pathname === '/admin');

    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.getByText('Overview of your software marketplace').isVisible()).toBe(true);
    const dashboard = await readDashboard(page);
    const card = (name: string) => page.getByRole('region', { name, exact: true });
    await card('Total Products').getByText(String(dashboard.totalProducts), { exact: true }).waitFor();
    expect(await card('Total Products').textContent()).toContain(`${dashboard.featuredProducts} featured`);
    expect(await card('Total Orders').textContent()).toContain(
      `${dashboard.totalOrders}${dashboard.completedOrders} completed`,
    );
    expect(await card('Total Customers').textContent()).toContain(
      `${dashboard.totalCustomers}Unique customers`,
    );
    expect(dashboard.totalCustomers).toBe(3);
    expect(await card('Total Revenue').textContent()).toContain(
      `${shownMoney(dashboard.totalRevenue)}All time`,
    );

    const rows = card('Recent Orders').getByRole('listitem');
    expect(await rows.count()).toBe(dashboard.recentOrders.length);
    for (const [index, order] of dashboard.recentOrders.entries()) {
      const text = await rows.nth(index).textContent();
      for (const part of [order.customerName, order.customerEmail, shownMoney(order.total), order.status]) {
        expect(text).toContain(part);
      }
      expect(await rows.nth(index).getByRole('link').getAttribute('href')).toBe(`/admin/orders/${order.id}`);
    }
    expect(await card('Low Stock').textContent()).toContain(`${dashboard.availableKeys} keys available`);
    for (const product of dashboard.lowStock) {
      expect(await card('Low Stock').textContent()).toContain(product.productName);
    }
    expect(
      await card('Low Stock').getByRole('link', { name: 'Manage license keys' }).getAttribute('href'),
    ).toBe('/admin/license-keys');
    expect(await page.title()).toBe('Dashboard | LicenseStore');

    // A recent order opens its order page.
    const [newest] = dashboard.recentOrders;
    if (!newest) throw new Error('the dashboard lists no recent order');
    await rows.first().getByRole('link').click();
    await page.waitForURL((url) => url.pathname === `/admin/orders/${newest.id}`);
    await page.getByRole('heading', { level: 1, name: `Order ${orderNumber(newest.id)}` }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('styles completed, pending and cancelled order badges each differently for admins', async () => {
    const { page, close } = await adminPage();
    const badge = (status: string) =>
      page.getByRole('region', { name: 'Recent Orders' }).getByText(status, { exact: true }).first();
    await badge('cancelled').waitFor();
    const background = (status: string) =>
      badge(status).evaluate((element) => getComputedStyle(element).backgroundColor);
    const [completed, pending, cancelled] = await Promise.all(
      ['completed', 'pending', 'cancelled'].map(background),
    );
    expect(new Set([completed, pending, cancelled]).size).toBe(3);
    await close();
  });
});

describe('the admin layout', () => {
  it('navigates with the sidebar, marks the current item and checks the admin status on each route change', async () => {
    const { page, close } = await adminPage();
    const management = page.getByRole('navigation', { name: 'Management' });
    let statusChecks = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/admin/status') statusChecks += 1;
    });
    for (const item of [...SIDEBAR_ITEMS.slice(1), SIDEBAR_ITEMS[0]]) {
      if (!item) continue;
      const before = statusChecks;
      await management.getByRole('link', { name: item.name, exact: true }).click();
      await page.waitForURL((url) => url.pathname === item.path);
      expect(
        await management.getByRole('link', { name: item.name, exact: true }).getAttribute('aria-current'),
      ).toBe('page');
      expect(await management.locator('[aria-current="page"]').count()).toBe(1);
      await expect.poll(() => statusChecks).toBeGreaterThan(before);
    }
    expect(await page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    await close();
  });

  it('shows the login screen when a later status check fails', async () => {
    const { page, close } = await adminPage();
    await page.route('**/api/admin/status', (route) => route.fulfill({ status: 500, body: 'down' }));
    await page.getByRole('navigation', { name: 'Management' }).getByRole('link', { name: 'Orders' }).click();
    await waitForLoginScreen(page);
    expect(await page.getByRole('heading', { name: 'Admin Panel' }).count()).toBe(0);
    await close();
  });

  it('collapses to icons with Ctrl+B, names them in tooltips, keeps the state in sidebar_state for 7 days', async () => {
    const { page, close } = await adminPage();
    expect(await sidebarWidth(page)).toBe(SIDEBAR_WIDTH_PX);

    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarWidth(page)).toBe(SIDEBAR_ICONS_WIDTH_PX);
    const cookie = await sidebarCookie(page);
    expect(cookie?.value).toBe('false');
    expect(cookie?.path).toBe('/');
    expect(Math.abs((cookie?.expires ?? 0) - (Date.now() / 1000 + SEVEN_DAYS_S))).toBeLessThan(60);
    // Collapsed, the links keep their names for screen readers and show them in a tooltip.
    const dashboardLink = page.getByRole('link', { name: 'Dashboard', exact: true });
    await dashboardLink.hover();
    await page.getByRole('tooltip', { name: 'Dashboard' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Admin Panel' }).waitFor({ state: 'attached' });
    expect(await sidebarWidth(page)).toBe(SIDEBAR_ICONS_WIDTH_PX);

    await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
    await expect.poll(() => sidebarWidth(page)).toBe(SIDEBAR_WIDTH_PX);
    expect((await sidebarCookie(page))?.value).toBe('true');
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarWidth(page)).toBe(SIDEBAR_ICONS_WIDTH_PX);
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarWidth(page)).toBe(SIDEBAR_WIDTH_PX);
    await close();
  });

  it('opens the sidebar as an 18rem sheet at phone width, closed by following a link', async () => {
    const { page, close } = await adminPage({ phone: true });
    expect(await page.locator('aside#sidebar').count()).toBe(0);
    await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
    const sheet = page.getByRole('dialog', { name: 'Admin Panel' });
    await sheet.waitFor();
    expect((await sheet.boundingBox())?.width).toBe(SHEET_WIDTH_PX);
    await sheet.getByRole('link', { name: 'Customers' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/customers');
    await sheet.waitFor({ state: 'detached' });
    await close();
  });

  it('sends a signed-in admin from /admin/login to the dashboard', async () => {
    const { page, close } = await adminPage();
    await page.goto('/admin/login');
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.getByRole('heading', { name: 'Admin Login' }).count()).toBe(0);
    await close();
  });

  it('shows the 404 page to an admin on an admin path the router does not know', async () => {
    const { page, close } = await adminPage();
    await page.goto('/admin/nothing-here');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await close();
  });

  it('says Error - Failed to logout when the server refuses, and stays', async () => {
    const { page, close } = await adminPage();
    await page.route('**/api/admin/logout', (route) => route.fulfill({ status: 500, body: 'down' }));
    await page.getByRole('button', { name: 'Logout' }).click();
    await toastSaying(page, 'Error', 'Failed to logout');
    expect(new URL(page.url()).pathname).toBe('/admin');
    await close();
  });

  it('logs out: Logged out, the storefront, and the login screen on the way back', async () => {
    const { page, close } = await adminPage();
    await page.getByRole('button', { name: 'Logout' }).click();
    await toastSaying(page, 'Logged out');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(async () => (await fetch('/api/admin/status')).json())).toEqual({
      isAdmin: false,
      role: null,
      username: null,
    });
    await page.goto('/admin');
    await waitForLoginScreen(page);
    await close();
  });
});

describe('accessibility', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe violations on the login screen (${colorScheme})`, async () => {
      const { page, close } = await openPage(e2e.browser, e2e.store.url, { colorScheme });
      await page.goto('/admin/login');
      await waitForLoginScreen(page);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await close();
    });

    it(`has no serious or critical axe violations on the dashboard, expanded and collapsed (${colorScheme})`, async () => {
      const { page, close } = await adminPage({ colorScheme });
      await page.getByRole('region', { name: 'Recent Orders' }).getByRole('listitem').first().waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.keyboard.press('Control+b');
      await expect.poll(() => sidebarWidth(page)).toBe(SIDEBAR_ICONS_WIDTH_PX);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await close();
    });
  }

  it('reaches the sidebar items and the toggle by keyboard, with a visible focus ring', async () => {
    const { page, close } = await adminPage();
    const expected = [...SIDEBAR_ITEMS.map((item) => item.name), 'Logout', 'Toggle Sidebar'];
    const reached = new Set<string>();
    for (let step = 0; step < 20 && reached.size < expected.length; step += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return {
          name: element?.getAttribute('aria-label') ?? element?.textContent?.trim() ?? '',
          outline: element ? getComputedStyle(element).outlineStyle : 'none',
        };
      });
      if (!expected.includes(focused.name)) continue;
      reached.add(focused.name);
      expect(focused.outline, focused.name).not.toBe('none');
    }
    expect([...reached].sort()).toEqual([...expected].sort());
    await close();
  });
});

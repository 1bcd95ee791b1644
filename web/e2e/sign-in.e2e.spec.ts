import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReadMail, readMail, signInLinkIn } from '../../test/support/mail.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/support/smtp-server.js';
import { openPage, PHONE, seriousA11yViolations } from './support/browser.js';
import { purchasableProducts, purchase } from './support/purchases.js';
import { storeAndBrowserForThisFile } from './support/store-and-browser.js';

/**
 * A shopper signs in with a one-time link e-mailed to the address they bought with. The store sends through
 * a real SMTP server started here, and the test reads the link out of the message that server received.
 */

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  await smtp.open();
});

afterAll(async () => {
  await smtp?.close();
});

const e2e = storeAndBrowserForThisFile(() => ({ SMTP_URL: smtp.url }));

const ada = { name: 'Ada Lovelace', email: `ada-${randomUUID()}@example.com` };
const grace = { name: 'Grace Hopper', email: `grace-${randomUUID()}@example.com` };
let adasOrderId: string;
let gracesOrderId: string;

beforeAll(async () => {
  const [product] = await purchasableProducts(e2e.store.url);
  if (!product) throw new Error('the demo catalogue has no product in stock');
  // Ada typed her address in capitals at checkout; she signs in with it in lower case.
  adasOrderId = (
    await purchase(e2e.store.url, { ...ada, email: ada.email.toUpperCase() }, [{ product, quantity: 1 }])
  ).id;
  gracesOrderId = (await purchase(e2e.store.url, grace, [{ product, quantity: 1 }])).id;
});

/** The sign-in e-mail the SMTP server received for `email` after `since` messages, once it has arrived. */
async function signInMailTo(email: string, since: number): Promise<ReadMail> {
  const isSignInTo = (raw: string, recipients: string[]) =>
    recipients.includes(email) && /^Subject: Your sign-in link/m.test(raw);
  await smtp.until(`a sign-in e-mail to ${email}`, () =>
    smtp.received.slice(since).some((mail) => isSignInTo(mail.raw, mail.recipients)),
  );
  const mail = smtp.received.slice(since).find((received) => isSignInTo(received.raw, received.recipients));
  return readMail(mail?.raw ?? '');
}

/** Fills in the sign-in form the page shows and sends it; returns the link e-mailed for it. */
async function askForLink(page: Page, email: string) {
  const since = smtp.received.length;
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your inbox', level: 1 }).waitFor();
  return signInMailTo(email.toLowerCase(), since);
}

const orderCard = (page: Page, orderId: string) =>
  page.getByRole('article', { name: `Order ${orderNumber(orderId)}` });

describe('Signing in with an e-mailed link', () => {
  it('goes from Sign In to My Orders with the link from the e-mail, and Logout ends it', async () => {
    const { page, errors, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL('**/sign-in');
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(await page.title()).toBe('Sign in | LicenseStore');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');

    const mail = await askForLink(page, ada.email);
    expect(await page.getByRole('status').textContent()).toBe(
      `If ${ada.email} can receive email, a sign-in link is on its way to it.`,
    );
    expect(mail.subject).toBe('Your sign-in link for LicenseStore');
    expect(mail.from).toEqual({ name: 'LicenseStore', address: 'no-reply@licensestore.local' });
    expect(mail.to).toEqual([ada.email]);
    const { url } = signInLinkIn(mail);
    expect(url.startsWith(`${e2e.store.url}/api/login/callback?token=`)).toBe(true);
    expect(mail.html).toContain(`<a href="${url}">Sign in to LicenseStore</a>`);

    await page.goto(url);
    await page.waitForURL('**/account');
    await orderCard(page, adasOrderId).waitFor();
    expect(await page.getByRole('article').count()).toBe(1);
    const [cookie] = (await page.context().cookies()).filter(({ name }) => name === 'sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, expires: -1 });

    const header = page.getByRole('banner');
    expect(await header.getByRole('link', { name: 'My Orders' }).isVisible()).toBe(true);
    expect(await header.getByRole('img', { name: 'Your profile' }).isVisible()).toBe(true);
    expect(await header.getByRole('link', { name: 'Sign In' }).count()).toBe(0);

    await header.getByRole('link', { name: 'Logout' }).click();
    await page.waitForURL(`${e2e.store.url}/`);
    await header.getByRole('link', { name: 'Sign In' }).waitFor();
    expect(await header.getByRole('link', { name: 'My Orders' }).count()).toBe(0);
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Sign in to see your orders' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('acts on a link from another site (a webmail page) only once the visitor presses the button', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/api/login');
    const { url } = signInLinkIn(await askForLink(page, `webmail-${randomUUID()}@example.com`));
    // The mail as a webmail site shows it: Chromium then says the navigation came from another site.
    await page.route('http://webmail.test/', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<a href="${url}">Sign in</a> <a href="${e2e.store.url}/api/logout">Sign out</a>`,
      }),
    );
    const sessionCookies = async () =>
      (await page.context().cookies(e2e.store.url)).filter(({ name }) => name === 'sid');

    await page.goto('http://webmail.test/');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to LicenseStore', level: 1 }).waitFor();
    expect(await sessionCookies()).toEqual([]);
    // The token reached the page's script in the fragment, and the address bar no longer shows it.
    expect(page.url()).toBe(`${e2e.store.url}/sign-in/confirm`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/account');
    expect(await sessionCookies()).toHaveLength(1);

    await page.goto('http://webmail.test/');
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign out of LicenseStore?', level: 1 }).waitFor();
    expect(page.url()).toBe(`${e2e.store.url}/sign-out`);
    expect(await sessionCookies()).toHaveLength(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${e2e.store.url}/`);
    expect(await sessionCookies()).toEqual([]);
    await close();
  });

  it('refuses a link a second time, and offers a new one', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/api/login');
    const { url } = signInLinkIn(await askForLink(page, `once-${randomUUID()}@example.com`));
    await page.goto(url);
    await page.waitForURL('**/account');

    await page.goto(url);
    await page.waitForURL('**/sign-in/link-expired');
    await page
      .getByRole('heading', { name: 'This sign-in link has expired or was already used', level: 1 })
      .waitFor();
    await page.getByRole('link', { name: 'Get a new sign-in link' }).click();
    await page.waitForURL('**/sign-in');
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await close();
  });

  it("shows a customer only their own orders, never another's", async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/api/login');
    await page.goto(signInLinkIn(await askForLink(page, grace.email)).url);
    await orderCard(page, gracesOrderId).waitFor();
    expect(await page.getByRole('article').count()).toBe(1);
    expect(await orderCard(page, adasOrderId).count()).toBe(0);
    await close();
  });

  it('leads Sign Up to a page saying an account is made by signing in, and asks again for an address that is not one, sending nothing', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Sign Up' }).click();
    await page.waitForURL('**/sign-up');
    await page.getByRole('heading', { name: 'Create your account', level: 1 }).waitFor();
    expect(await page.getByRole('main').textContent()).toContain(
      'your account is made the first time you sign in with your email address',
    );
    const since = smtp.received.length;
    await page.getByLabel('Email address').fill('not-an-address');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    const field = page.getByLabel('Email address');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    expect(
      await page.getByRole('main').getByText('Enter an email address, like name@example.com.').isVisible(),
    ).toBe(true);
    expect(await field.getAttribute('aria-describedby')).toBe('sign-in-email-problem');
    expect(await page.getByLabel('Email address').inputValue()).toBe('not-an-address');
    expect(smtp.received.length).toBe(since);
    await close();
  });

  it('says to try again while the mail server refuses, and sends the link once it accepts', async () => {
    const { page, close } = await openPage(e2e.browser, e2e.store.url);
    const email = `retry-${randomUUID()}@example.com`;
    await page.goto('/api/login');
    await page.waitForURL('**/sign-in');
    smtp.refuse();
    try {
      await page.getByLabel('Email address').fill(email);
      const [response] = await Promise.all([
        page.waitForResponse(
          (answer) => answer.url().endsWith('/api/login') && answer.request().method() === 'POST',
        ),
        page.getByRole('button', { name: 'Email me a sign-in link' }).click(),
      ]);
      expect(response.status()).toBe(503);
      await page.getByRole('heading', { name: 'We could not send the email just now', level: 1 }).waitFor();
    } finally {
      smtp.accept();
    }
    await page.getByRole('button', { name: 'Try again' }).click();
    expect(await page.getByLabel('Email address').inputValue()).toBe(email);
    const { url } = signInLinkIn(await askForLink(page, email));
    await page.goto(url);
    await page.getByRole('heading', { name: 'No orders yet' }).waitFor();
    await close();
  });

  it('shows every page of the flow in the chosen theme, with the header and footer, and no serious accessibility violations', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const viewport of [{ width: 1366, height: 768 }, PHONE]) {
        // The system says the opposite: the page follows the theme chosen in the store, not the system's.
        const { page, errors, close } = await openPage(e2e.browser, e2e.store.url, {
          viewport,
          colorScheme: theme === 'dark' ? 'light' : 'dark',
        });
        await page.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme);
        const check = async (name: string) => {
          await page.getByRole('heading', { level: 1 }).waitFor();
          expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
            theme === 'dark',
          );
          const toggle = page
            .getByRole('banner')
            .getByRole('button', { name: /^Switch to (light|dark) theme$/ });
          expect(await toggle.isVisible()).toBe(true);
          expect(await page.getByRole('contentinfo').isVisible()).toBe(true);
          // No sideways scrolling on a phone.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
            viewport.width,
          );
          // The pointer rests where the last click left it: a hovered button is not what the page shows.
          await page.mouse.move(0, 0);
          await page.screenshot({ path: join(tmpdir(), `sign-in-${name}-${theme}-${viewport.width}.png`) });
          expect({ theme, name, violations: await seriousA11yViolations(page) }).toEqual({
            theme,
            name,
            violations: [],
          });
        };
        await page.goto('/api/login');
        await check('sign-in');
        await page.getByLabel('Email address').fill('nope');
        await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
        await page.getByText('Enter an email address, like name@example.com.').waitFor();
        await check('invalid-address');
        await askForLink(page, `a11y-${theme}-${randomUUID()}@example.com`);
        await check('check-inbox');
        await page.goto('/api/login?intent=sign-up');
        await check('sign-up');
        await page.goto(`/api/login/callback?token=${'A'.repeat(43)}`);
        await page.waitForURL('**/sign-in/link-expired');
        await check('link-expired');
        await page.goto(`/sign-in/confirm#token=${'A'.repeat(43)}`);
        await check('confirm-sign-in');
        await page.goto('/sign-out');
        await check('confirm-sign-out');
        // Chromium logs the 400 the invalid address was answered with; nothing else went wrong.
        expect(errors.filter((error) => !error.includes('400'))).toEqual([]);
        await close();
      }
    }
  });
});

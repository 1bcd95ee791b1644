import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { sep } from 'node:path';
import express from 'express';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaypalSandbox, type PaypalSandbox } from '../src/index.js';
import { PaypalClient } from './support/sandbox.js';

/** PayPal's own loader, served to the page as the store's bundle would ship it. */
const PAYPAL_JS = createRequire(import.meta.url)
  .resolve('@paypal/paypal-js')
  .replace(`${sep}cjs${sep}`, `${sep}esm${sep}`);

/** The app's CSP, minus the PayPal hosts: the emulated SDK must work with same-origin scripts only. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:";

const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>PayPal sandbox SDK</title></head>
  <body>
    <div id="paypal-buttons"></div>
    <div id="card-name"></div>
    <div id="card-number"></div>
    <div id="card-expiry"></div>
    <div id="card-cvv"></div>
    <button id="pay-by-card" type="button">Pay by card</button>
    <script type="module" src="/page.js"></script>
  </body>
</html>`;

/** What the store's checkout does, reduced to recording every callback. */
const PAGE_SCRIPT = `
import { loadScript } from '/vendor/paypal-js.js';

const query = new URLSearchParams(location.search);
const events = (window.events = []);
const createOrder = async () => {
  const response = await fetch('/store/orders', { method: 'POST' });
  const { id } = await response.json();
  events.push({ type: 'createOrder', id });
  return id;
};

try {
  const paypal = await loadScript({
    clientId: query.get('clientId') || 'sb-emulator-client',
    currency: query.get('currency') || 'USD',
    intent: 'capture',
    components: ['buttons', 'card-fields'],
    sdkBaseUrl: location.origin + '/paypal-sandbox/sdk/js',
    ...(query.get('dataScenario') ? { dataScenario: query.get('dataScenario') } : {}),
    ...(query.get('scenario') ? { scenario: query.get('scenario') } : {}),
  });
  await paypal
    .Buttons({
      createOrder,
      onApprove: async (data, actions) => {
        events.push({ type: 'approve', data });
        if (!query.get('captureOnApprove')) return;
        const response = await fetch('/store/orders/' + data.orderID + '/capture', { method: 'POST' });
        const result = await response.json();
        events.push({ type: 'capture', data: result });
        // What PayPal asks of the store when the buyer's instrument is declined.
        if (result.issue === 'INSTRUMENT_DECLINED') return actions.restart();
      },
      onCancel: (data) => events.push({ type: 'cancel', data }),
      onError: (error) => events.push({ type: 'error', message: String(error && error.message) }),
    })
    .render('#paypal-buttons');

  const cardFields = paypal.CardFields({
    style: {
      input: { borderRadius: '8px', 'font-size': '15px' },
      ':focus': { boxShadow: 'rgb(0, 0, 255) 0px 0px 0px 4px' },
    },
    createOrder,
    onApprove: async (data) => events.push({ type: 'card-approve', data }),
    onError: (error) => events.push({ type: 'card-error', message: String(error && error.message) }),
  });
  window.cardEligible = cardFields.isEligible();
  if (cardFields.isEligible()) {
    await cardFields.NameField({}).render('#card-name');
    await cardFields.NumberField({ style: { input: { color: 'rgb(1, 2, 3)' } } }).render('#card-number');
    await cardFields.ExpiryField({}).render('#card-expiry');
    await cardFields.CVVField({}).render('#card-cvv');
    window.cardState = () => cardFields.getState();
    document.querySelector('#pay-by-card').addEventListener('click', () => {
      cardFields.submit().catch((error) => events.push({ type: 'submit-rejected', message: error.message }));
    });
  }
  document.body.dataset.ready = 'true';
} catch (error) {
  events.push({ type: 'load-error', message: String(error && error.message) });
  document.body.dataset.ready = 'failed';
}
`;

interface PageEvent {
  type: string;
  id?: string;
  message?: string;
  data?: Record<string, unknown>;
}

interface CardState {
  isFormValid: boolean;
  errors: string[];
  fields: Record<string, { isEmpty: boolean; isValid: boolean }>;
}

/** The page's globals as seen from page.evaluate (the Node typings have no DOM). */
interface PageGlobals {
  events: PageEvent[];
  cardEligible: boolean;
  cardState: () => Promise<CardState>;
  document: {
    body: { dataset: Record<string, string | undefined> };
    querySelector: (selector: string) => { getAttribute: (name: string) => string | null } | null;
  };
}

let sandbox: PaypalSandbox;
let server: Server;
let origin: string;
let store: PaypalClient;
let browser: Browser;
let page: Page;
let consoleErrors: string[];

beforeAll(async () => {
  sandbox = createPaypalSandbox();
  const app = express();
  app.use((_req, res, next) => {
    res.set('content-security-policy', CSP);
    next();
  });
  app.use('/paypal-sandbox', sandbox.router);
  app.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });
  app.get('/', (_req, res) => {
    res.type('html').send(PAGE);
  });
  app.get('/page.js', (_req, res) => {
    res.type('application/javascript').send(PAGE_SCRIPT);
  });
  app.get('/vendor/paypal-js.js', (_req, res) => {
    res.sendFile(PAYPAL_JS);
  });
  // The store's server: prices the cart and creates the PayPal order.
  app.post('/store/orders', async (_req, res) => {
    res.json({ id: await store.createOrder('e2e-order') });
  });
  app.post('/store/orders/:id/capture', async (req, res) => {
    const reply = await store.request('POST', `/v2/checkout/orders/${req.params.id}/capture`, undefined, {
      'paypal-request-id': `capture-${req.params.id}`,
    });
    res.json({ status: reply.status, issue: reply.body.details?.[0]?.issue ?? null });
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  store = new PaypalClient(`${origin}/paypal-sandbox`);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await sandbox.close();
});

beforeEach(async () => {
  page = await browser.newPage();
  consoleErrors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
});

afterEach(async () => {
  await page.close();
});

async function open(query = '') {
  await page.goto(`${origin}/${query}`);
  await page.waitForSelector('body[data-ready]');
}

const events = () => page.evaluate(() => (globalThis as unknown as PageGlobals).events);

async function nextEvent(type: string): Promise<PageEvent> {
  await page.waitForFunction(
    (wanted) => (globalThis as unknown as PageGlobals).events.some((event) => event.type === wanted),
    type,
  );
  return (await events()).find((event) => event.type === type) as PageEvent;
}

const pageReady = () =>
  page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.dataset.ready);
const cardEligible = () => page.evaluate(() => (globalThis as unknown as PageGlobals).cardEligible);
const cardState = () => page.evaluate(() => (globalThis as unknown as PageGlobals).cardState());

const payPalButton = () => page.getByRole('button', { name: 'PayPal', exact: true });

const expiryNextYear = () => `08/${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;

describe('PayPal sandbox browser SDK', () => {
  describe('when loaded by @paypal/paypal-js loadScript with sdkBaseUrl', () => {
    it('defines window.paypal with Buttons and CardFields under a same-origin CSP', async () => {
      await open();
      expect(await pageReady()).toBe('true');
      const script = await page.evaluate(() =>
        (globalThis as unknown as PageGlobals).document
          .querySelector('script[src*="/sdk/js"]')
          ?.getAttribute('src'),
      );
      expect(script).toBe(
        `${origin}/paypal-sandbox/sdk/js?client-id=sb-emulator-client&currency=USD&intent=capture&components=buttons,card-fields`,
      );
      await expect(payPalButton().isVisible()).resolves.toBe(true);
      expect(await cardEligible()).toBe(true);
      expect(consoleErrors).toEqual([]);
    });

    it('rejects the load when the SDK refuses its query', async () => {
      await open('?currency=XYZ');
      expect(await pageReady()).toBe('failed');
      expect(await nextEvent('load-error')).toMatchObject({
        message: expect.stringContaining('failed to load'),
      });
    });
  });

  describe('when the buyer clicks the PayPal button', () => {
    it('creates the order, approves it at once and calls onApprove with its id', async () => {
      await open();
      await payPalButton().click();
      const created = await nextEvent('createOrder');
      const approved = await nextEvent('approve');
      expect(approved.data).toEqual({
        orderID: created.id,
        payerID: expect.stringMatching(/^[A-Z0-9]{13}$/),
        paymentID: null,
        billingToken: null,
        facilitatorAccessToken: expect.stringMatching(/^A21AA/),
        paymentSource: 'paypal',
      });
      const order = await store.request('GET', `/v2/checkout/orders/${created.id}`);
      expect(order.body).toMatchObject({ status: 'APPROVED', payer: { payer_id: approved.data?.payerID } });
      // The store's server captures on onApprove.
      const capture = await store.request('POST', `/v2/checkout/orders/${created.id}/capture`);
      expect(capture.status).toBe(201);
      expect(capture.body.purchase_units[0].payments.captures[0].status).toBe('COMPLETED');
      expect(consoleErrors).toEqual([]);
    });

    it('calls onCancel when the buyer cancels in the chooser', async () => {
      await open();
      await page.getByLabel('Sandbox buyer').selectOption('cancel');
      await payPalButton().click();
      const created = await nextEvent('createOrder');
      expect((await nextEvent('cancel')).data).toEqual({ orderID: created.id });
      expect((await events()).some((event) => event.type === 'approve')).toBe(false);
      expect((await store.request('GET', `/v2/checkout/orders/${created.id}`)).body.status).toBe('CREATED');
    });

    it('approves an order whose capture is declined with the decline scenario (data-scenario)', async () => {
      await open('?dataScenario=decline');
      await payPalButton().click();
      const approved = await nextEvent('approve');
      const capture = await store.request('POST', `/v2/checkout/orders/${approved.data?.orderID}/capture`);
      expect(capture.status).toBe(422);
      expect(capture.body.details[0].issue).toBe('INSTRUMENT_DECLINED');
    });
  });

  describe('when the capture is declined and the store restarts the approval', () => {
    it('calls onApprove again and the second capture succeeds', async () => {
      await open('?dataScenario=decline&captureOnApprove=1');
      await payPalButton().click();
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).events.filter((event) => event.type === 'capture').length ===
          2,
      );
      const all = await events();
      expect(all.filter((event) => event.type === 'createOrder')).toHaveLength(1);
      expect(all.filter((event) => event.type === 'approve')).toHaveLength(2);
      expect(all.filter((event) => event.type === 'capture').map((event) => event.data)).toEqual([
        { status: 422, issue: 'INSTRUMENT_DECLINED' },
        { status: 201, issue: null },
      ]);
      expect(all.some((event) => event.type === 'error')).toBe(false);
    });
  });

  describe('when the buyer pays with the card fields', () => {
    it('renders the inputs, reports a valid form, confirms the card and calls onApprove', async () => {
      await open();
      await page.getByLabel('Cardholder name').fill('Jane Buyer');
      await page.getByPlaceholder('Card number').fill('4111 1111 1111 1111');
      await page.getByPlaceholder('MM/YY').fill(expiryNextYear());
      await page.getByPlaceholder('CVV').fill('123');
      const state = await cardState();
      expect(state).toMatchObject({ isFormValid: true, errors: [] });

      await page.getByRole('button', { name: 'Pay by card' }).click();
      const created = await nextEvent('createOrder');
      expect((await nextEvent('card-approve')).data).toEqual({ orderID: created.id, liabilityShift: 'NO' });
      const order = await store.request('GET', `/v2/checkout/orders/${created.id}`);
      expect(order.body).toMatchObject({
        status: 'APPROVED',
        payment_source: { card: { last_digits: '1111', brand: 'VISA', name: 'Jane Buyer' } },
      });
      expect(consoleErrors).toEqual([]);
    });

    it('draws the fields in the style given to CardFields and to each field, the focus style while focused', async () => {
      await open();
      const look = (label: string) =>
        page.getByLabel(label).evaluate((input) => {
          const style = (
            globalThis as unknown as { getComputedStyle: (node: unknown) => Record<string, string> }
          ).getComputedStyle(input);
          return {
            radius: style.borderRadius,
            size: style.fontSize,
            color: style.color,
            shadow: style.boxShadow,
          };
        });
      expect(await look('Card number')).toMatchObject({
        radius: '8px',
        size: '15px',
        color: 'rgb(1, 2, 3)',
        shadow: 'none',
      });
      expect((await look('Cardholder name')).color).not.toBe('rgb(1, 2, 3)');
      await page.getByLabel('Card number').focus();
      expect((await look('Card number')).shadow).toBe('rgb(0, 0, 255) 0px 0px 0px 4px');
      await page.getByLabel('Cardholder name').focus();
      expect(await look('Card number')).toMatchObject({
        radius: '8px',
        color: 'rgb(1, 2, 3)',
        shadow: 'none',
      });
    });

    it('reports invalid fields and submits nothing', async () => {
      await open();
      await page.getByLabel('Cardholder name').fill('Jane Buyer');
      await page.getByPlaceholder('Card number').fill('4111 1111 1111 1112');
      await page.getByPlaceholder('MM/YY').fill('13/30');
      const state = await cardState();
      expect(state.isFormValid).toBe(false);
      expect(state.errors).toEqual(['INVALID_NUMBER', 'INVALID_EXPIRY', 'INVALID_CVV']);
      await page.getByRole('button', { name: 'Pay by card' }).click();
      expect((await nextEvent('submit-rejected')).message).toContain('INVALID_NUMBER');
      expect((await events()).some((event) => event.type === 'createOrder')).toBe(false);
    });

    it('reports an empty number as invalid, not as a card of a brand it does not take', async () => {
      await open();
      await page.getByLabel('Cardholder name').fill('Jane Buyer');
      const state = await cardState();
      expect(state.errors).toEqual(['INVALID_NUMBER', 'INVALID_EXPIRY', 'INVALID_CVV']);
      expect(state.fields.cardNumberField).toMatchObject({ isEmpty: true, isValid: false });
    });

    it('calls onError with PAYMENT_SOURCE_DECLINED_BY_PROCESSOR for the card declined at confirmation', async () => {
      await open();
      await page.getByLabel('Cardholder name').fill('Jane Buyer');
      await page.getByPlaceholder('Card number').fill('4000000000009995');
      await page.getByPlaceholder('MM/YY').fill(expiryNextYear());
      await page.getByPlaceholder('CVV').fill('123');
      await page.getByRole('button', { name: 'Pay by card' }).click();
      expect((await nextEvent('card-error')).message).toContain('PAYMENT_SOURCE_DECLINED_BY_PROCESSOR');
      expect((await events()).some((event) => event.type === 'card-approve')).toBe(false);
    });
  });

  describe('when card payments are not enabled', () => {
    it.each([
      ['the card-ineligible scenario', '?scenario=card-ineligible'],
      ['the sb-no-cards client id', '?clientId=sb-no-cards'],
    ])('reports isEligible() false for %s', async (_case, query) => {
      await open(query);
      expect(await pageReady()).toBe('true');
      expect(await cardEligible()).toBe(false);
      await expect(payPalButton().isVisible()).resolves.toBe(true);
    });
  });
});

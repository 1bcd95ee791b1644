import { randomUUID } from 'node:crypto';
import {
  checkoutStream,
  type OrderView,
  orderStream,
  productDecider,
  productStream,
} from '@licensestore/domain';
import { handleCommand } from '@licensestore/domain/commands';
import type { EventStore } from '@licensestore/domain/events';
import {
  clientAuthorization,
  type RunningPaypalSandbox,
  startPaypalSandbox,
} from '@licensestore/paypal-sandbox';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPaypalClient, type PaypalClient } from '../src/payments/index.js';
import type { TestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { eventsWhere, readEvents, seedProduct } from './support/checkout.js';
import { buyerChooses, cookieSet } from './support/purchase.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const customer = { customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' };

describe('Checkout', () => {
  let store: ApiWithReadModel;
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let emulator: RunningPaypalSandbox;
  let paypal: PaypalClient;
  let api: TestApi | undefined;
  let office: string;
  let windows: string;
  /** Off: the emulator keeps its webhooks to itself (a store that is down, or a browser-only scenario). */
  let webhooksOn = true;

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${(api as TestApi).url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** The cookie each PayPal order's starting browser got, sent with its captures as the browser would. */
  const checkoutCookies = new Map<string, string>();

  const createOrder = async (
    items: Array<{ productId: string; quantity: number }>,
    amount: string,
    buyer: Partial<typeof customer> = {},
  ) => {
    const response = await post('/paypal/order', {
      amount,
      currency: 'USD',
      intent: 'CAPTURE',
      items,
      ...buyer,
    });
    const body = (await response.json()) as { id?: string; error?: string };
    if (body.id) checkoutCookies.set(body.id, cookieSet(response, 'checkout_access'));
    return { response, body };
  };

  /** The capability the store gives the browser that starts `paypalOrderId`, for checkouts a test forges. */
  const holdCheckout = (paypalOrderId: string) =>
    checkoutCookies.set(
      paypalOrderId,
      `checkout_access=${(api as TestApi).orderAccess.token('checkout', paypalOrderId)}`,
    );

  /** A PayPal order the store created for one Office license (199.50 on sale), not yet approved. */
  const createdOrder = async () => {
    const { response, body } = await createOrder([{ productId: office, quantity: 1 }], '199.50');
    expect(response.status).toBe(201);
    return body.id as string;
  };

  /** The buyer's choice in PayPal's window, as the emulator's SDK sends it. */
  const approve = async (paypalOrderId: string, choice: 'approve' | 'decline' | 'pending' = 'approve') => {
    await buyerChooses(emulator.baseUrl, paypalOrderId, choice);
  };

  const capture = (paypalOrderId: string, body: unknown = customer) => {
    const cookie = checkoutCookies.get(paypalOrderId);
    return post(`/paypal/order/${paypalOrderId}/capture`, body, cookie ? { cookie } : {});
  };

  const approvedOrder = async (choice: 'approve' | 'decline' | 'pending' = 'approve') => {
    const id = await createdOrder();
    await approve(id, choice);
    return id;
  };

  const capturesAtPaypal = (paypalOrderId: string) =>
    emulator.sandbox.state.orders.get(paypalOrderId)?.purchase_units[0]?.payments?.captures ?? [];

  beforeAll(async () => {
    emulator = await startPaypalSandbox({
      host: '127.0.0.1',
      webhookUrl: () => (api && webhooksOn ? `${api.url}/paypal/webhook` : undefined),
      webhookRetryDelaysMs: [],
    });
    store = await startApiWithReadModel({ payments: { apiBaseUrl: emulator.baseUrl } });
    ({ api, database, eventStore } = store);
    paypal = createPaypalClient({
      baseUrl: emulator.baseUrl,
      clientId: 'sb-emulator-client',
      clientSecret: 'sb-emulator-secret',
    });
    office = await seedProduct(eventStore, database, {
      name: 'Office 2021',
      regularPrice: '249.99',
      salePrice: '199.50',
    });
    windows = await seedProduct(eventStore, database, { name: 'Windows 11 Pro', regularPrice: '20.00' });
  });

  afterAll(async () => {
    await emulator?.stop();
    await store?.stop();
  });

  describe('creating the PayPal order', () => {
    it('prices the cart on the server and creates the PayPal order with a breakdown and items', async () => {
      const { response, body } = await createOrder(
        [
          { productId: office, quantity: 2 },
          { productId: windows, quantity: 1 },
          { productId: office, quantity: 1 },
        ],
        '618.50',
      );
      expect(response.status).toBe(201);
      expect(body.id).toMatch(/^[A-Z0-9]+$/);
      const order = await paypal.getOrder(body.id as string);
      expect(order.purchase_units?.[0]).toMatchObject({
        amount: { currency_code: 'USD', value: '618.50', breakdown: { item_total: { value: '618.50' } } },
        items: [
          {
            name: 'Office 2021',
            sku: office,
            quantity: '3',
            unit_amount: { currency_code: 'USD', value: '199.50' },
            category: 'DIGITAL_GOODS',
          },
          { name: 'Windows 11 Pro', sku: windows, quantity: '1', unit_amount: { value: '20.00' } },
        ],
      });
      const [started, ...rest] = await readEvents(eventStore, checkoutStream(body.id as string));
      expect(rest).toHaveLength(0);
      expect(started).toMatchObject({
        type: 'CheckoutStarted',
        data: {
          paypalOrderId: body.id,
          total: '618.50',
          currency: 'USD',
          lines: [
            { productId: office, quantity: 3, unitPrice: '199.50', lineTotal: '598.50' },
            { productId: windows, quantity: 1, unitPrice: '20.00', lineTotal: '20.00' },
          ],
        },
        metadata: { actor: { type: 'customer', id: 'guest' }, schemaVersion: 1 },
      });
    });

    it('refuses a client amount that disagrees with the server price, before PayPal hears of it', async () => {
      const ordersBefore = emulator.sandbox.state.orders.size;
      const { response, body } = await createOrder([{ productId: office, quantity: 1 }], '0.01');
      expect(response.status).toBe(400);
      expect(body.error).toBe(
        'The cart total changed: the store prices it at 199.50 USD, not 0.01. Please review your cart.',
      );
      expect(emulator.sandbox.state.orders.size).toBe(ordersBefore);
    });

    it('checks the buyer a checkout names before PayPal hears of it: both fields or none', async () => {
      const items = [{ productId: office, quantity: 1 }];
      const ordersBefore = emulator.sandbox.state.orders.size;
      const email = await createOrder(items, '199.50', { ...customer, customerEmail: 'ada.example.com' });
      expect(email.response.status).toBe(400);
      expect(email.body).toEqual({ error: 'Please enter a valid email address' });
      const half = await createOrder(items, '199.50', { customerName: customer.customerName });
      expect(half.response.status).toBe(400);
      expect(half.body).toEqual({
        error: 'customerName and customerEmail go together: send both or neither',
      });
      expect(emulator.sandbox.state.orders.size).toBe(ordersBefore);
    });

    it('refuses unknown, deleted and out-of-stock products, naming them', async () => {
      const unknown = randomUUID();
      const soldOut = await seedProduct(eventStore, database, { name: 'Norton 360', inStock: false });
      const deleted = await seedProduct(eventStore, database, { name: 'Visio 2019' });
      const deletion = await handleCommand(
        eventStore,
        productStream(deleted),
        productDecider,
        { type: 'DeleteProduct', productId: deleted, now: new Date().toISOString() },
        { actor: { type: 'admin', id: 'test' }, correlationId: 'c', causationId: 'c' },
      );
      // Pricing reads the catalogue's read table: the deletion counts once the projection has applied it.
      await waitForProjections(database.pool, deletion.appended?.position as string, {
        projectors: ['products'],
      });
      const refused = async (productId: string) => {
        const { response, body } = await createOrder([{ productId, quantity: 1 }], '100.00');
        expect(response.status).toBe(422);
        return body.error;
      };
      expect(await refused(unknown)).toBe(`Unknown product ${unknown}`);
      expect(await refused(soldOut)).toBe("'Norton 360' is out of stock");
      expect(await refused(deleted)).toBe("'Visio 2019' is no longer sold");
    });

    it('refuses unreasonable quantities, carts and currencies', async () => {
      const tooMany = await createOrder([{ productId: office, quantity: 11 }], '2194.50');
      expect(tooMany.response.status).toBe(400);
      expect(tooMany.body.error).toBe(`Quantity of product ${office} must be between 1 and 10, not 11`);
      const zero = await createOrder([{ productId: office, quantity: 0 }], '0.00');
      expect(zero.response.status).toBe(400);
      const empty = await createOrder([], '0.00');
      expect(empty.response.status).toBe(400);
      const euros = await post('/paypal/order', {
        amount: '199.50',
        currency: 'EUR',
        intent: 'CAPTURE',
        items: [{ productId: office, quantity: 1 }],
      });
      expect(euros.status).toBe(400);
      expect(((await euros.json()) as { error: string }).error).toBe('currency: only USD is accepted');
    });
  });

  describe('capturing', () => {
    it('validates the customer with the messages the checkout form shows', async () => {
      const id = await approvedOrder();
      const name = await capture(id, { ...customer, customerName: ' A ' });
      expect(name.status).toBe(400);
      expect(await name.json()).toEqual({ error: 'Name must be at least 2 characters' });
      const email = await capture(id, { ...customer, customerEmail: 'ada.example.com' });
      expect(email.status).toBe(400);
      expect(await email.json()).toEqual({ error: 'Please enter a valid email address' });
      expect(capturesAtPaypal(id)).toHaveLength(0);
    });

    it('refuses PayPal order ids the store did not create', async () => {
      const foreign = await paypal.createOrder({
        intent: 'CAPTURE',
        purchase_units: [{ amount: { currency_code: 'USD', value: '1.00' } }],
      });
      await approve(foreign.id);
      // Even with a capability the store would have given for it (it never did: this one is forged).
      for (const id of [foreign.id, 'NOSUCHORDER123']) holdCheckout(id);
      for (const id of [foreign.id, 'NOSUCHORDER123', 'lower-case']) {
        const response = await capture(id);
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: 'Unknown PayPal order' });
      }
      expect(capturesAtPaypal(foreign.id)).toHaveLength(0);
    });

    it('captures an approved order into a new order stream and answers with the order', async () => {
      const id = await approvedOrder();
      const response = await capture(id, {
        ...customer,
        items: [{ productId: office, productName: 'Office 2021', price: '0.01', quantity: 1 }],
      });
      expect(response.status).toBe(200);
      const order = (await response.json()) as OrderView;
      expect(order).toEqual({
        id: expect.stringMatching(UUID),
        customerName: 'Ada Lovelace',
        customerEmail: 'ada@example.com',
        total: '199.50',
        status: 'processing',
        createdAt: expect.any(String),
        paymentStatus: 'completed',
        deliveryEmailSentAt: null,
        receiptNumber: null,
        reviewStatus: null,
      });
      // The answer is the stored order: the next read, with the access the answer gave, shows it as it is (and the
      // money that went back since, none yet).
      const stored = await fetch(`${(api as TestApi).url}/api/orders/${order.id}`, {
        headers: { cookie: cookieSet(response, 'order_access') },
      });
      expect(await stored.json()).toEqual({
        ...order,
        refunds: [],
        refundedTotal: '0.00',
        netTotal: order.total,
        hasAccess: true,
      });
      const checkout = await readEvents(eventStore, checkoutStream(id));
      expect(checkout.map((event) => event.type)).toEqual(['CheckoutStarted', 'CheckoutCaptured']);
      expect(checkout[1]?.data).toMatchObject({ orderId: order.id, captureStatus: 'COMPLETED' });
      const [placed, ...more] = await readEvents(eventStore, orderStream(order.id));
      expect(more).toHaveLength(0);
      expect(placed).toMatchObject({
        type: 'OrderCaptured',
        data: {
          orderId: order.id,
          paypalOrderId: id,
          customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
          total: '199.50',
          status: 'processing',
          lines: [{ lineId: expect.any(String), productId: office, quantity: 1, unitPrice: '199.50' }],
        },
        metadata: {
          actor: { type: 'customer', id: 'ada@example.com' },
          causationId: checkout[1]?.id,
          schemaVersion: 2,
        },
      });
      expect(capturesAtPaypal(id)).toHaveLength(1);
    });

    it('answers a repeated capture with the same order, capturing once', async () => {
      const id = await approvedOrder();
      const first = (await (await capture(id)).json()) as OrderView;
      const again = await capture(id);
      expect(again.status).toBe(200);
      expect(((await again.json()) as OrderView).id).toBe(first.id);
      expect(await eventsWhere(database, 'OrderCaptured', 'paypalOrderId', id)).toHaveLength(1);
      expect(capturesAtPaypal(id)).toHaveLength(1);
    });

    it('makes one order of 20 concurrent captures of one PayPal order', async () => {
      const id = await approvedOrder();
      const responses = await Promise.all(Array.from({ length: 20 }, () => capture(id)));
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
      const ids = new Set(
        await Promise.all(responses.map(async (response) => ((await response.json()) as OrderView).id)),
      );
      expect(ids.size).toBe(1);
      expect(await eventsWhere(database, 'OrderCaptured', 'paypalOrderId', id)).toHaveLength(1);
      expect(await eventsWhere(database, 'CheckoutCaptured', 'paypalOrderId', id)).toHaveLength(1);
      expect(capturesAtPaypal(id)).toHaveLength(1);
    });

    it('returns a decline with PayPal issue, recording nothing', async () => {
      const id = await approvedOrder('decline');
      const response = await capture(id);
      expect(response.status).toBe(422);
      const body = (await response.json()) as { error: string; issue: string };
      expect(body.issue).toBe('INSTRUMENT_DECLINED');
      expect(body.error).toMatch(/declined/i);
      expect((await readEvents(eventStore, checkoutStream(id))).map((event) => event.type)).toEqual([
        'CheckoutStarted',
      ]);
    });

    it('refuses an order the buyer did not approve (cancelled), and captures it once approved', async () => {
      const id = await createdOrder();
      const cancelled = await capture(id);
      expect(cancelled.status).toBe(422);
      expect(await cancelled.json()).toMatchObject({ issue: 'ORDER_NOT_APPROVED' });
      expect(await eventsWhere(database, 'CheckoutCaptured', 'paypalOrderId', id)).toHaveLength(0);
      await approve(id);
      const paid = await capture(id);
      expect(paid.status).toBe(200);
    });
  });

  describe('when PayPal captured other money than the store priced', () => {
    /** A PayPal order for `amount` that the store's checkout stream believes is 199.50 USD (a forged record). */
    const mismatched = async (amount: { currency_code: string; value: string }) => {
      const order = await paypal.createOrder({ intent: 'CAPTURE', purchase_units: [{ amount }] });
      await approve(order.id);
      await eventStore.append(
        checkoutStream(order.id),
        [
          {
            type: 'CheckoutStarted',
            data: {
              paypalOrderId: order.id,
              lines: [
                {
                  productId: office,
                  productName: 'Office 2021',
                  quantity: 1,
                  unitPrice: '199.50',
                  lineTotal: '199.50',
                },
              ],
              total: '199.50',
              currency: 'USD',
              startedAt: new Date().toISOString(),
            },
            metadata: {
              actor: { type: 'system', id: 'test' },
              correlationId: 'c',
              causationId: 'c',
            },
          },
        ],
        'no_stream',
      );
      holdCheckout(order.id);
      return order.id;
    };

    it.each([
      ['amount', { currency_code: 'USD', value: '1.00' }],
      ['currency', { currency_code: 'EUR', value: '199.50' }],
    ])(
      'refuses the payment when the %s differs, records nothing and says so loudly',
      async (_what, amount) => {
        webhooksOn = false;
        try {
          const id = await mismatched(amount);
          const response = await capture(id);
          expect(response.status).toBe(422);
          expect(((await response.json()) as { error: string }).error).toMatch(
            /does not match the order total 199.50 USD/,
          );
          expect(await eventsWhere(database, 'CheckoutCaptured', 'paypalOrderId', id)).toHaveLength(0);
          expect(await eventsWhere(database, 'OrderCaptured', 'paypalOrderId', id)).toHaveLength(0);
          const alert = (api as TestApi).logger.entries.find(
            (entry) =>
              entry.level === 'error' && (entry.fields as { paypalOrderId?: string }).paypalOrderId === id,
          );
          expect(alert?.fields).toMatchObject({ alert: 'payment-not-accepted' });
        } finally {
          webhooksOn = true;
        }
      },
    );

    it('acknowledges, and refuses, a capture webhook about such a payment', async () => {
      webhooksOn = false;
      const id = await mismatched({ currency_code: 'USD', value: '1.00' });
      await paypal.capture(id, `capture-${id}`);
      webhooksOn = true;
      const delivery = await emulator.sandbox.sendWebhook(
        'PAYMENT.CAPTURE.COMPLETED',
        capturesAtPaypal(id)[0]?.id as string,
      );
      expect(delivery.lastStatus).toBe(200);
      expect(await eventsWhere(database, 'CheckoutCaptured', 'paypalOrderId', id)).toHaveLength(0);
      expect(await eventsWhere(database, 'OrderCaptured', 'paypalOrderId', id)).toHaveLength(0);
    });
  });

  describe('recovery', () => {
    it("repairs a crash between the checkout and the order appends: the retry places the recorded order, under the capture's correlation id", async () => {
      webhooksOn = false;
      try {
        const captureCorrelationId = randomUUID();
        const id = await approvedOrder();
        const captured = await paypal.capture(id, `capture-${id}`);
        const captureId = captured.purchase_units?.[0]?.payments?.captures?.[0]?.id as string;
        const orderId = randomUUID();
        await eventStore.append(
          checkoutStream(id),
          [
            {
              type: 'CheckoutCaptured',
              data: {
                paypalOrderId: id,
                orderId,
                captureId,
                captureStatus: 'COMPLETED',
                customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
                capturedAt: new Date().toISOString(),
              },
              metadata: {
                actor: { type: 'customer', id: 'ada@example.com' },
                correlationId: captureCorrelationId,
                causationId: 'c',
              },
            },
          ],
          0n,
        );
        const response = await capture(id);
        expect(response.status).toBe(200);
        expect(((await response.json()) as OrderView).id).toBe(orderId);
        // One id follows the purchase from the capture that was recorded, not the retry that repaired it.
        expect(
          (await readEvents(eventStore, orderStream(orderId))).map(({ type, metadata }) => ({
            type,
            correlationId: metadata.correlationId,
          })),
        ).toEqual([{ type: 'OrderCaptured', correlationId: captureCorrelationId }]);
        expect(await eventsWhere(database, 'OrderCaptured', 'paypalOrderId', id)).toHaveLength(1);
        expect(capturesAtPaypal(id)).toHaveLength(1);
      } finally {
        webhooksOn = true;
      }
    });

    /** PayPal captured `id` but its answer never reached the browser; the capture webhook then places the order. */
    const placedByWebhook = async (id: string) => {
      webhooksOn = false;
      await paypal.capture(id, `capture-${id}`);
      webhooksOn = true;
      const captureId = capturesAtPaypal(id)[0]?.id as string;
      const delivery = await emulator.sandbox.sendWebhook('PAYMENT.CAPTURE.COMPLETED', captureId);
      expect(delivery.lastStatus).toBe(200);
      const [placed] = await eventsWhere(database, 'OrderCaptured', 'paypalOrderId', id);
      return placed;
    };

    it('places the order from the webhook for the buyer the starting browser named', async () => {
      const named = { customerName: 'Grace Hopper', customerEmail: 'grace@example.com' };
      const { body } = await createOrder([{ productId: office, quantity: 1 }], '199.50', named);
      await approve(body.id as string);
      const [started] = await readEvents(eventStore, checkoutStream(body.id as string));
      expect(started?.metadata.actor).toEqual({ type: 'customer', id: 'grace@example.com' });
      const placed = await placedByWebhook(body.id as string);
      expect(placed?.data).toMatchObject({ customer: { name: 'Grace Hopper', email: 'grace@example.com' } });
    });

    it('places the order from PayPal’s payer when the browser named nobody and never came back; the late browser gets it too', async () => {
      const id = await approvedOrder();
      const placed = await placedByWebhook(id);
      expect(placed?.data).toMatchObject({
        status: 'processing',
        customer: { name: 'John Doe', email: 'sb-buyer@personal.example.com' },
      });
      const late = await capture(id);
      expect(late.status).toBe(200);
      expect(((await late.json()) as OrderView).id).toBe(placed?.data.orderId);
      expect(await eventsWhere(database, 'OrderCaptured', 'paypalOrderId', id)).toHaveLength(1);
      expect(capturesAtPaypal(id)).toHaveLength(1);
    });
  });

  describe('when PayPal has already captured, or fails', () => {
    it('takes a capture made with another request id as the payment (ORDER_ALREADY_CAPTURED, then reads the order)', async () => {
      webhooksOn = false;
      try {
        const id = await approvedOrder();
        await paypal.capture(id, `someone-else-${id}`);
        const response = await capture(id);
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ status: 'processing', total: '199.50' });
        expect(capturesAtPaypal(id)).toHaveLength(1);
        expect(await eventsWhere(database, 'OrderCaptured', 'paypalOrderId', id)).toHaveLength(1);
      } finally {
        webhooksOn = true;
      }
    });

    it('answers 502 when PayPal keeps failing (after retries with the same request id), recording nothing', async () => {
      const id = await createdOrder();
      await buyerChooses(emulator.baseUrl, id, 'error');
      const response = await capture(id);
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        error: 'PayPal is not answering right now; please try again in a moment.',
      });
      expect(await eventsWhere(database, 'CheckoutCaptured', 'paypalOrderId', id)).toHaveLength(0);
    });
  });

  describe('webhooks', () => {
    const lastDelivery = (eventType: string, captureId: string) =>
      emulator.sandbox.webhookDeliveries.findLast(
        (delivery) => delivery.event.event_type === eventType && delivery.event.resource.id === captureId,
      );

    const redeliver = (
      delivery: NonNullable<ReturnType<typeof lastDelivery>>,
      body = JSON.stringify(delivery.event),
    ) =>
      fetch(`${(api as TestApi).url}/paypal/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url':
            'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-sandboxemu',
          'paypal-transmission-id': delivery.transmission.transmissionId,
          'paypal-transmission-sig': delivery.transmission.signature,
          'paypal-transmission-time': delivery.transmission.transmissionTime,
        },
        body,
      });

    /** An order whose capture PayPal holds as PENDING. */
    const pendingOrder = async () => {
      const id = await approvedOrder('pending');
      const response = await capture(id);
      expect(response.status).toBe(200);
      const order = (await response.json()) as OrderView;
      expect(order.status).toBe('pending');
      return { id, order, captureId: capturesAtPaypal(id)[0]?.id as string };
    };

    it('completes a pending order once, however often the event is delivered', async () => {
      const { order, captureId } = await pendingOrder();
      const delivery = await emulator.sandbox.settleCapture(captureId, 'complete');
      expect(delivery.lastStatus).toBe(200);
      const types = async () =>
        (await readEvents(eventStore, orderStream(order.id))).map((event) => event.type);
      expect(await types()).toEqual(['OrderCaptured', 'OrderPaymentCompleted']);
      const completed = (await readEvents(eventStore, orderStream(order.id)))[1];
      expect(completed?.metadata).toMatchObject({
        actor: { type: 'system', id: 'paypal-webhook' },
        causationId: delivery.event.id,
      });

      const resent = await emulator.sandbox.resendWebhook(delivery.event.id);
      expect(resent.lastStatus).toBe(200);
      const replay = await redeliver(delivery);
      expect(replay.status).toBe(200);
      expect(await replay.json()).toEqual({ status: 'duplicate' });
      expect(await types()).toEqual(['OrderCaptured', 'OrderPaymentCompleted']);
    });

    it('cancels a pending order PayPal denies', async () => {
      const { order, captureId } = await pendingOrder();
      const delivery = await emulator.sandbox.settleCapture(captureId, 'deny');
      expect(delivery.lastStatus).toBe(200);
      expect((await readEvents(eventStore, orderStream(order.id))).map((event) => event.type)).toEqual([
        'OrderCaptured',
        'OrderPaymentDenied',
      ]);
    });

    it("records a refund made in PayPal's dashboard: every unit of the order, which becomes refunded", async () => {
      const id = await approvedOrder();
      const order = (await (await capture(id)).json()) as OrderView;
      await emulator.sandbox.idle();
      const captureId = capturesAtPaypal(id)[0]?.id as string;
      await paypal.refund(captureId, {}, `refund-${captureId}`);
      await emulator.sandbox.idle();
      const events = await readEvents(eventStore, orderStream(order.id));
      expect(events.map((event) => event.type)).toEqual([
        'OrderCaptured',
        'OrderRefundCompleted',
        'OrderStatusChanged',
      ]);
      expect(events[1]?.data).toMatchObject({ refundId: null, amount: order.total });
      expect(events[2]?.data).toMatchObject({ to: 'refunded' });
    });

    it('refuses an event whose signature does not verify, and one without PayPal headers', async () => {
      const { captureId } = await pendingOrder();
      const delivery = await emulator.sandbox.settleCapture(captureId, 'complete');
      const tampered = JSON.stringify({ ...delivery.event, id: 'WH-FORGED-1' });
      const forged = await redeliver(delivery, tampered);
      expect(forged.status).toBe(400);
      expect(await forged.json()).toEqual({ error: 'Webhook signature verification failed' });
      const bare = await post('/paypal/webhook', delivery.event);
      expect(bare.status).toBe(400);
      expect(await bare.json()).toEqual({ error: 'Missing PayPal transmission headers' });
    });

    it('acknowledges events it does not act on', async () => {
      const { id } = await pendingOrder();
      const pending = emulator.sandbox.webhookDeliveries.findLast(
        (delivery) =>
          delivery.event.event_type === 'PAYMENT.CAPTURE.PENDING' &&
          delivery.event.resource.id === capturesAtPaypal(id)[0]?.id,
      );
      expect(pending?.lastStatus).toBe(200);
    });
  });
});

describe('Checkout with the emulator the app mounts itself', () => {
  let store: ApiWithReadModel;

  beforeAll(async () => {
    store = await startApiWithReadModel();
  });
  afterAll(() => store?.stop());

  it('tells the web client to load the emulator SDK with the placeholder client id', async () => {
    const response = await fetch(`${store.api.url}/api/payments/config`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      clientId: 'sb-emulator-client',
      sdkBaseUrl: '/paypal-sandbox/sdk/js',
      currency: 'USD',
      simulated: true,
    });
    const sdk = await fetch(
      `${store.api.url}/paypal-sandbox/sdk/js?client-id=sb-emulator-client&currency=USD`,
    );
    expect(sdk.status).toBe(200);
  });

  it('takes a payment end to end, and receives the capture webhook on its own origin', async () => {
    const productId = await seedProduct(store.eventStore, store.database, { regularPrice: '12.34' });
    const json = { 'content-type': 'application/json' };
    const created = await fetch(`${store.api.url}/paypal/order`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        amount: '24.68',
        currency: 'USD',
        intent: 'CAPTURE',
        items: [{ productId, quantity: 2 }],
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const approved = await fetch(`${store.api.url}/paypal-sandbox/buyer/orders/${id}/approve`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ choice: 'approve' }),
    });
    expect(approved.status).toBe(200);
    const captured = await fetch(`${store.api.url}/paypal/order/${id}/capture`, {
      method: 'POST',
      headers: { ...json, cookie: cookieSet(created, 'checkout_access') },
      body: JSON.stringify(customer),
    });
    expect(captured.status).toBe(200);
    expect(cookieSet(captured, 'order_access')).toMatch(/^order_access=[\w-]{43}$/);
    expect(await captured.json()).toMatchObject({
      total: '24.68',
      status: 'processing',
      customerEmail: 'ada@example.com',
    });
    await vi.waitFor(
      async () => {
        const deliveries = (await (
          await fetch(`${store.api.url}/paypal-sandbox/simulate/deliveries`, {
            headers: { authorization: clientAuthorization() },
          })
        ).json()) as Array<{
          event_type: string;
          delivered: boolean;
          status: number | null;
        }>;
        expect(deliveries).toContainEqual(
          expect.objectContaining({ event_type: 'PAYMENT.CAPTURE.COMPLETED', delivered: true, status: 200 }),
        );
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});

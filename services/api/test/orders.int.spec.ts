import { randomUUID } from 'node:crypto';
import type { OrderView } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendOrder,
  appendProduct,
  orderCaptured,
  orderLine,
  paymentCompleted,
  paymentDenied,
  productCreated,
  productDeleted,
  productFields,
  refunded,
  statusChanged,
} from '../../../projections/test/support/orders.js';
import { findOrder, listOrderItems } from '../src/orders/queries.js';
import { signIn, type TestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const READ_MODELS = ['products', 'orders', 'customers', 'dashboard'];

describe('Orders, customers and dashboard API', () => {
  let store: ApiWithReadModel;
  let api: TestApi;
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let admin: string;
  let customer: string;
  let last = '';

  const get = (path: string, cookie?: string) =>
    fetch(`${api.url}${path}`, { headers: cookie ? { cookie } : {} });
  const json = async (path: string, cookie?: string) => {
    const response = await get(path, cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return response.json();
  };
  /** Appends and waits until every read model the API reads has applied it. */
  const recorded = async (appending: Promise<{ position: string }>) => {
    const { position } = await appending;
    if (position > last) last = position;
    expect(
      await waitForProjections(database.pool, last, { projectors: READ_MODELS, timeoutMs: 10_000 }),
    ).toBe(true);
  };
  const capture = async (options: Parameters<typeof orderCaptured>[0]) => {
    const event = orderCaptured(options);
    await recorded(appendOrder(eventStore, event.data.orderId, event));
    return event.data;
  };
  const at = (day: number) => new Date(Date.UTC(2026, 5, day, 12)).toISOString();

  beforeAll(async () => {
    store = await startApiWithReadModel({ env: { ADMIN_PASSWORD: ADMIN.password } });
    ({ api, database, eventStore } = store);
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
    customer = await api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
  });
  afterAll(() => store?.stop());

  describe('before the first order', () => {
    it('lists nothing and the dashboard counts zero', async () => {
      expect(await json('/api/orders', admin)).toStrictEqual([]);
      expect(await json('/api/customers', admin)).toStrictEqual([]);
      expect(await json('/api/admin/dashboard', admin)).toStrictEqual({
        totalProducts: 0,
        featuredProducts: 0,
        totalOrders: 0,
        completedOrders: 0,
        totalCustomers: 0,
        totalRevenue: '0.00',
        recentOrders: [],
        availableKeys: 0,
        assignedKeys: 0,
        ordersAwaitingKeys: 0,
        ordersHeldForReview: 0,
        lowStock: [],
      });
    });
  });

  describe('GET /api/orders/:orderId and its items (anyone holding the id)', () => {
    it('answers the order and its lines in the order they were bought, in full to the paying browser', async () => {
      const office = orderLine('Microsoft Office 2021 Professional Plus', 2, '149.50');
      const download = {
        downloadUrl: 'https://setup.office.com/',
        installationNotes: 'Sign in at setup.office.com.\nEnter your key, then install.',
      };
      await recorded(
        appendProduct(
          eventStore,
          office.productId,
          productCreated(office.productId, productFields(download), at(1)),
        ),
      );
      const windows = orderLine('Windows 11 Pro', 1, '19.99');
      const order = await capture({
        name: 'Ada Lovelace',
        email: 'Ada@Example.com',
        lines: [office, windows],
        capturedAt: '2026-06-01T09:30:00.000Z',
      });
      const payer = `order_access=${api.orderAccess.token('order-cookie', order.orderId)}`;

      expect(await json(`/api/orders/${order.orderId}`, payer)).toStrictEqual({
        id: order.orderId,
        customerName: 'Ada Lovelace',
        customerEmail: 'Ada@Example.com',
        total: '318.99',
        status: 'processing',
        createdAt: '2026-06-01T09:30:00.000Z',
        paymentStatus: 'completed',
        deliveryEmailSentAt: null,
        receiptNumber: null,
        reviewStatus: null,
        refunds: [],
        refundedTotal: '0.00',
        netTotal: '318.99',
        hasAccess: true,
      });
      expect(await json(`/api/orders/${order.orderId.toUpperCase()}`)).toMatchObject({ id: order.orderId });
      expect(await json(`/api/orders/${order.orderId}/items`, payer)).toStrictEqual([
        {
          id: `${order.orderId}:${office.lineId}`,
          productName: 'Microsoft Office 2021 Professional Plus',
          quantity: 2,
          price: '149.50',
          ...download,
          licenseKey: null,
          licenseKeys: [],
        },
        {
          id: `${order.orderId}:${windows.lineId}`,
          productName: 'Windows 11 Pro',
          quantity: 1,
          price: '19.99',
          downloadUrl: null,
          installationNotes: null,
          licenseKey: null,
          licenseKeys: [],
        },
      ]);

      // Whoever else knows the id: the address masked, no key fields on the lines.
      expect(await json(`/api/orders/${order.orderId}`)).toMatchObject({ customerEmail: 'A•••@Example.com' });
      expect(await json(`/api/orders/${order.orderId}/items`)).toStrictEqual([
        {
          id: `${order.orderId}:${office.lineId}`,
          productName: 'Microsoft Office 2021 Professional Plus',
          quantity: 2,
          price: '149.50',
          ...download,
        },
        {
          id: `${order.orderId}:${windows.lineId}`,
          productName: 'Windows 11 Pro',
          quantity: 1,
          price: '19.99',
          downloadUrl: null,
          installationNotes: null,
        },
      ]);

      // A product no longer sold has no download to offer; the catalogue is again what the back-office lists count.
      await recorded(appendProduct(eventStore, office.productId, productDeleted(office.productId, at(2))));
      expect(await json(`/api/orders/${order.orderId}/items`)).toMatchObject([
        { downloadUrl: null, installationNotes: null },
        { downloadUrl: null },
      ]);
    });

    it('shows the status the order is in now', async () => {
      const order = await capture({
        name: 'Grace Hopper',
        email: 'grace@example.org',
        lines: [orderLine('Norton 360 Deluxe', 1, '39.99')],
        status: 'pending',
        capturedAt: at(2),
      });
      expect(await json(`/api/orders/${order.orderId}`)).toMatchObject({ status: 'pending' });
      await recorded(appendOrder(eventStore, order.orderId, paymentDenied(order.orderId, at(3))));
      expect(await json(`/api/orders/${order.orderId}`)).toMatchObject({ status: 'cancelled' });
    });

    it('answers 404 Order not found for an unknown or malformed id, for the order and its items', async () => {
      for (const path of [
        `/api/orders/${randomUUID()}`,
        `/api/orders/${randomUUID()}/items`,
        '/api/orders/not-an-order',
        '/api/orders/not-an-order/items',
        "/api/orders/1' OR '1'='1",
      ]) {
        const response = await get(path);
        expect({ path, status: response.status, body: await response.json() }).toStrictEqual({
          path,
          status: 404,
          body: { error: 'Order not found' },
        });
      }
    });
  });

  describe('the query functions the capture answer uses', () => {
    it('findOrder and listOrderItems read the stored order; null and [] for anything else', async () => {
      const order = await capture({
        name: 'Linus',
        email: 'linus@example.net',
        lines: [orderLine('WinRAR', 3, '10.00')],
        capturedAt: at(4),
      });
      expect(await findOrder(database.db, order.orderId)).toStrictEqual({
        id: order.orderId,
        customerName: 'Linus',
        customerEmail: 'linus@example.net',
        total: '30.00',
        status: 'processing',
        createdAt: at(4),
        paymentStatus: 'completed',
        deliveryEmailSentAt: null,
        receiptNumber: null,
        reviewStatus: null,
      });
      expect(await listOrderItems(database.db, order.orderId)).toStrictEqual([
        {
          id: expect.stringContaining(order.orderId),
          productName: 'WinRAR',
          quantity: 3,
          price: '10.00',
          sealedKeys: [],
          keyIds: [],
          downloadUrl: null,
          installationNotes: null,
          keyStatuses: [],
          refundedUnits: 0,
        },
      ]);
      expect(await findOrder(database.db, randomUUID())).toBeNull();
      expect(await findOrder(database.db, 'nope')).toBeNull();
      expect(await listOrderItems(database.db, 'nope')).toStrictEqual([]);
    });
  });

  describe('back-office lists', () => {
    it.each(['/api/orders', '/api/customers', '/api/admin/dashboard'])(
      '%s answers 401 without a session and 403 to a customer',
      async (path) => {
        const anonymous = await get(path);
        expect(anonymous.status).toBe(401);
        expect(await anonymous.json()).toStrictEqual({ error: 'Authentication required' });
        const signedInCustomer = await get(path, customer);
        expect(signedInCustomer.status).toBe(403);
        expect(await signedInCustomer.json()).toStrictEqual({ error: 'Back-office access required' });
      },
    );

    describe('after more orders and products', () => {
      const ids: Record<string, string> = {};
      beforeAll(async () => {
        const [featured, plain, gone] = [randomUUID(), randomUUID(), randomUUID()];
        await recorded(
          appendProduct(
            eventStore,
            featured,
            productCreated(featured, productFields({ featured: true }), at(1)),
          ),
        );
        await recorded(appendProduct(eventStore, plain, productCreated(plain, productFields(), at(1))));
        await recorded(
          appendProduct(
            eventStore,
            gone,
            productCreated(gone, productFields({ featured: true }), at(1)),
            productDeleted(gone, at(2)),
          ),
        );
        const refundedLater = await capture({
          name: 'Ada L.',
          email: 'ADA@example.com',
          lines: [orderLine('Adobe Acrobat Pro', 1, '50.00')],
          capturedAt: at(6),
        });
        await recorded(
          appendOrder(eventStore, refundedLater.orderId, refunded(refundedLater.orderId, at(8))),
        );
        // Recorded after the order of day 6, captured before it.
        const earlier = await capture({
          name: 'Margaret',
          email: 'margaret@example.com',
          lines: [orderLine('Visio', 1, '12.00')],
          capturedAt: at(5),
        });
        const completed = await capture({
          name: 'Linus T.',
          email: 'Linus@example.net ',
          lines: [orderLine('Parallels Desktop', 1, '25.00')],
          capturedAt: at(7),
        });
        await recorded(
          appendOrder(
            eventStore,
            completed.orderId,
            statusChanged(completed.orderId, 'processing', 'completed', at(8)),
          ),
        );
        Object.assign(ids, {
          featured,
          plain,
          refundedLater: refundedLater.orderId,
          earlier: earlier.orderId,
          completed: completed.orderId,
        });
      });

      it('GET /api/orders lists every order newest first (by capture time), in the shape of one order', async () => {
        const orders = (await json('/api/orders', admin)) as Record<string, unknown>[];
        expect(orders.map((order) => order.createdAt)).toStrictEqual([
          at(7),
          at(6),
          at(5),
          at(4),
          at(2),
          '2026-06-01T09:30:00.000Z',
        ]);
        expect(orders[0]).toStrictEqual({
          id: ids.completed,
          customerName: 'Linus T.',
          customerEmail: 'Linus@example.net ',
          total: '25.00',
          status: 'completed',
          createdAt: at(7),
          paymentStatus: 'completed',
          deliveryEmailSentAt: null,
          receiptNumber: null,
          reviewStatus: null,
        });
        expect(orders[1]).toMatchObject({ id: ids.refundedLater, status: 'refunded' });
      });

      it('GET /api/customers groups orders not declined by email, counts money kept, newest buyer first', async () => {
        expect(await json('/api/customers', admin)).toStrictEqual([
          {
            email: 'Linus@example.net ',
            name: 'Linus T.',
            orderCount: 2,
            totalSpent: '55.00',
            lastOrderDate: at(7),
          },
          {
            email: 'ADA@example.com',
            name: 'Ada L.',
            orderCount: 2,
            totalSpent: '318.99',
            lastOrderDate: at(6),
          },
          {
            email: 'margaret@example.com',
            name: 'Margaret',
            orderCount: 1,
            totalSpent: '12.00',
            lastOrderDate: at(5),
          },
          // Grace's only order was declined by PayPal: she bought nothing, so she is no customer.
        ]);
      });

      it('GET /api/admin/dashboard answers the counters, the five newest orders and the products low on keys', async () => {
        const orders = (await json('/api/orders', admin)) as OrderView[];
        expect(await json('/api/admin/dashboard', admin)).toStrictEqual({
          totalProducts: 2,
          featuredProducts: 1,
          // The order PayPal declined counts as neither an order nor a customer's.
          totalOrders: 5,
          completedOrders: 1,
          totalCustomers: 3,
          totalRevenue: '385.99',
          // The fields of each (id, customer name and email, total, status, date, whether PayPal declined it), as the
          // dashboard as of a past moment has them.
          recentOrders: orders
            .slice(0, 5)
            .map(({ id, customerName, customerEmail, total, status, createdAt, paymentStatus }) => ({
              id,
              customerName,
              customerEmail,
              total,
              status,
              createdAt,
              paymentDeclined: paymentStatus === 'denied',
              reviewStatus: null,
            })),
          availableKeys: 0,
          assignedKeys: 0,
          // Paid and not yet delivered: the three still processing (not the pending-then-denied, refunded or completed ones).
          ordersAwaitingKeys: 3,
          ordersHeldForReview: 0,
          // Both live products (same name, so by id) have no keys, below the default threshold of 5.
          lowStock: [ids.featured, ids.plain]
            .sort()
            .map((productId) => ({ productId, productName: 'Windows 11 Pro', available: 0 })),
        });
      });
    });
  });

  // Last: the lists above count every order of the database.
  describe('payment and delivery e-mail', () => {
    it("tells the payment's state apart from the status an admin sets, and when the delivery e-mail went out", async () => {
      const paymentOf = async (orderId: string) => {
        const order = await findOrder(database.db, orderId);
        return [order?.status, order?.paymentStatus, order?.deliveryEmailSentAt];
      };
      const reviewed = await capture({
        name: 'Ada',
        email: 'ada@example.com',
        lines: [orderLine('Visio', 1, '9.00')],
        status: 'pending',
        capturedAt: at(4),
      });
      expect(await paymentOf(reviewed.orderId)).toStrictEqual(['pending', 'pending', null]);
      await recorded(appendOrder(eventStore, reviewed.orderId, paymentCompleted(reviewed.orderId, at(5))));
      expect(await paymentOf(reviewed.orderId)).toStrictEqual(['processing', 'completed', null]);
      await recorded(
        appendOrder(
          eventStore,
          reviewed.orderId,
          statusChanged(reviewed.orderId, 'processing', 'pending', at(6)),
          {
            type: 'DeliveryEmailSent',
            data: {
              orderId: reviewed.orderId,
              trigger: randomUUID(),
              recipient: 'ada@example.com',
              messageId: '<m@x>',
              sentAt: at(7),
            },
          },
        ),
      );
      expect(await paymentOf(reviewed.orderId)).toStrictEqual(['pending', 'completed', at(7)]);

      const denied = await capture({
        name: 'Ada',
        email: 'ada@example.com',
        lines: [orderLine('Visio', 1, '9.00')],
        status: 'pending',
        capturedAt: at(4),
      });
      await recorded(appendOrder(eventStore, denied.orderId, paymentDenied(denied.orderId, at(5))));
      expect(await paymentOf(denied.orderId)).toStrictEqual(['cancelled', 'denied', null]);
    });
  });
});

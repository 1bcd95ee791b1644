import { randomUUID } from 'node:crypto';
import { reviewDecisionViewSchema, reviewViewSchema, riskRulesViewSchema } from '@licensestore/contract/risk';
import {
  orderStream,
  RISK_RULES_STREAM,
  RISK_WHAT_IF_STREAM,
  whatIfResultSchema,
} from '@licensestore/domain';
import type { DashboardAsOfView } from '@licensestore/domain/audit';
import type { DashboardView } from '@licensestore/domain/dashboard';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendOrder, orderCaptured, orderLine } from '../../../projections/test/support/orders.js';
import { callApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { deliverKeys, readEvents } from './support/checkout.js';
import { purchase } from './support/purchase.js';

const randomOctets = () => [0, 0, 0].map(() => Math.floor(Math.random() * 256)).join('.');

describe('Risk rules and the review queue', () => {
  let store: ApiWithReadModel;
  let url: string;
  let admin: string;
  let auditor: string;
  const adminId = randomUUID();

  beforeAll(async () => {
    // Each test buys from an address of its own (X-Forwarded-For, trusted here), as the velocity rules count by address.
    store = await startApiWithReadModel({ env: { TRUST_PROXY: 'true' } });
    url = store.api.url;
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: adminId });
    auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
  });
  afterAll(async () => {
    await store?.stop();
  });

  const putRules = (body: unknown, cookie = admin) =>
    callApi(url, 'PUT', '/api/admin/risk-rules', { cookie, body });
  const rulesOff = {
    holdAtOrAbove: null,
    firstOrderAtOrAbove: null,
    velocity: null,
    blockedEmailDomains: [],
    productQuantityAtOrAbove: null,
  };
  beforeEach(async () => {
    expect((await putRules(rulesOff)).status).toBe(200);
  });

  const buyer = () => ({
    customerName: 'Ada Lovelace',
    customerEmail: `ada-${randomUUID().slice(0, 8)}@example.com`,
  });
  const orderView = async (orderId: string, cookie?: string) => {
    const response = await callApi(url, 'GET', `/api/orders/${orderId}`, { cookie });
    expect(response.status).toBe(200);
    return (await response.json()) as { reviewStatus: string | null; status: string };
  };
  /** Waits until the orders read model has every event of the order so far. */
  const projected = async (orderId: string) => {
    const [last] = (await readEvents(store.eventStore, orderStream(orderId))).slice(-1);
    const seen = await waitForProjections(store.database.pool, last?.position ?? '', {
      projectors: ['orders'],
      timeoutMs: 10_000,
    });
    expect(seen).toBe(true);
  };
  const eventTypes = async (orderId: string) =>
    (await readEvents(store.eventStore, orderStream(orderId))).map((event) => event.type);
  const reviews = async (status = 'held', cookie = admin) => {
    const response = await callApi(url, 'GET', `/api/admin/reviews?status=${status}`, { cookie });
    expect(response.status).toBe(200);
    return reviewViewSchema.array().parse(await response.json());
  };

  describe('GET and PUT /api/admin/risk-rules', () => {
    it('records a change as an event naming the admin, and answers the rules with who changed them', async () => {
      const response = await putRules({ holdAtOrAbove: '500.00', blockedEmailDomains: ['Mailinator.com'] });
      expect(response.status).toBe(200);
      const view = riskRulesViewSchema.parse(await response.json());
      expect(view.rules).toMatchObject({ holdAtOrAbove: '500.00', blockedEmailDomains: ['mailinator.com'] });
      expect(view.changedBy).toBe(adminId);
      const [last] = (await readEvents(store.eventStore, RISK_RULES_STREAM)).slice(-1);
      expect(last).toMatchObject({
        type: 'RiskRulesChanged',
        data: { changedFields: ['holdAtOrAbove', 'blockedEmailDomains'] },
        metadata: { actor: { type: 'admin', id: adminId } },
      });
    });

    it('is read by auditors and changed by admins only', async () => {
      const read = await callApi(url, 'GET', '/api/admin/risk-rules', { cookie: auditor });
      expect(read.status).toBe(200);
      const write = await putRules({ holdAtOrAbove: '1.00' }, auditor);
      expect(write.status).toBe(403);
      expect(await write.json()).toEqual({ error: 'Admin access required' });
      expect((await callApi(url, 'GET', '/api/admin/risk-rules')).status).toBe(401);
    });

    it('refuses rules it cannot apply with a 400 naming the field, changing nothing', async () => {
      const before = (await readEvents(store.eventStore, RISK_RULES_STREAM)).length;
      for (const body of [
        { holdAtOrAbove: 'lots' },
        { velocity: { windowMinutes: 0, maxOrders: 4, maxEmails: null } },
        { blockedEmailDomains: ['not a domain'] },
        { unknownRule: true },
      ]) {
        const response = await putRules(body);
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: string }).error).toMatch(/\S/);
      }
      expect(await readEvents(store.eventStore, RISK_RULES_STREAM)).toHaveLength(before);
    });
  });

  describe('when an order matches a rule', () => {
    it('holds it, names the rule, and shows the buyer no key until it is approved', async () => {
      await putRules({ holdAtOrAbove: '100.00' });
      const productId = await store.productWithKeys(2);
      const bought = await purchase(url, productId, buyer());
      expect(await eventTypes(bought.orderId)).toEqual(['OrderCaptured', 'OrderHeldForReview']);
      await deliverKeys(store.eventStore, store.database, bought.orderId);

      expect(await orderView(bought.orderId, bought.orderCookie)).toMatchObject({ reviewStatus: 'held' });
      const items = async () =>
        (await (
          await callApi(url, 'GET', `/api/orders/${bought.orderId}/items`, { cookie: bought.orderCookie })
        ).json()) as Array<{ licenseKey?: string | null; keysWithheld?: true }>;
      expect(await items()).toEqual([expect.objectContaining({ licenseKey: null, licenseKeys: [] })]);

      const [queued] = (await reviews()).filter((review) => review.orderId === bought.orderId);
      expect(queued).toMatchObject({ rules: ['order-total'], total: '100.00', overdue: false });
      expect(queued?.client?.hash).toMatch(/^[0-9a-f]{16}$/);

      const approved = await callApi(url, 'POST', `/api/admin/reviews/${bought.orderId}/approve`, {
        cookie: admin,
      });
      expect(approved.status).toBe(200);
      expect(reviewDecisionViewSchema.parse(await approved.json()).reviewStatus).toBe('approved');
      await projected(bought.orderId);
      expect(await orderView(bought.orderId)).toMatchObject({ reviewStatus: 'approved' });
      expect((await items())[0]?.licenseKey).toMatch(/\S/);
    });

    it('holds the fifth order from one client address within the window', async () => {
      await putRules({ velocity: { windowMinutes: 10, maxOrders: 4, maxEmails: null } });
      const productId = await store.productWithKeys(0, { regularPrice: '100.00' });
      const held: Array<string | null> = [];
      const from = { 'x-forwarded-for': `10.${randomOctets()}` };
      for (let n = 0; n < 5; n++) {
        const bought = await purchase(url, productId, buyer(), from);
        held.push((await orderView(bought.orderId)).reviewStatus);
      }
      expect(held).toEqual([null, null, null, null, 'held']);
    });
  });

  describe('the history of a hold', () => {
    it("shows the hold and its decision in the order's timeline, its state and the dashboard as of any moment", async () => {
      await putRules({ holdAtOrAbove: '100.00' });
      const productId = await store.productWithKeys(1);
      const { orderId } = await purchase(url, productId, buyer());
      const approved = await callApi(url, 'POST', `/api/admin/reviews/${orderId}/approve`, { cookie: admin });
      expect(approved.status).toBe(200);
      await projected(orderId);
      const events = await readEvents(store.eventStore, orderStream(orderId));
      const heldAt =
        events.find((event) => event.type === 'OrderHeldForReview')?.createdAt.toISOString() ?? '';
      const get = async <T>(path: string, cookie = auditor) => {
        const response = await callApi(url, 'GET', path, { cookie });
        expect(response.status).toBe(200);
        return (await response.json()) as T;
      };
      const at = (moment: string) => `at=${encodeURIComponent(moment)}`;

      const timeline = await get<Array<{ type: string }>>(`/api/orders/${orderId}/timeline`);
      expect(timeline.map((entry) => entry.type)).toEqual(
        expect.arrayContaining(['OrderHeldForReview', 'OrderApproved']),
      );
      const orderAsOf = (moment: string) =>
        get<{ reviewStatus: string | null }>(`/api/audit/orders/${orderId}/as-of?${at(moment)}`);
      expect(await orderAsOf(heldAt)).toMatchObject({ reviewStatus: 'held' });
      expect(await orderAsOf(new Date().toISOString())).toMatchObject({ reviewStatus: 'approved' });

      const dashboardAsOf = (moment: string) =>
        get<DashboardAsOfView>(`/api/audit/dashboard/as-of?${at(moment)}`);
      const whenHeld = await dashboardAsOf(heldAt);
      expect(whenHeld.recentOrders[0]).toMatchObject({ id: orderId, reviewStatus: 'held' });
      expect(whenHeld.ordersHeldForReview).toBeGreaterThanOrEqual(1);
      const { asOf: _asOf, events: _events, ...now } = await dashboardAsOf(new Date().toISOString());
      expect(now.recentOrders[0]).toMatchObject({ id: orderId, reviewStatus: 'approved' });
      expect(now.ordersHeldForReview).toBe(whenHeld.ordersHeldForReview - 1);
      expect(now).toEqual(await get<DashboardView>('/api/admin/dashboard', admin));
    });
  });

  describe('POST /api/admin/risk-rules/what-if', () => {
    it('answers what a draft would have held in a past period, and records the run for auditors', async () => {
      const at = (day: number) => new Date(Date.UTC(2025, 2, day, 12)).toISOString();
      const orders = [
        orderCaptured({
          name: 'Ann',
          email: 'ann-what-if@example.com',
          lines: [orderLine('Suite', 1, '600.00')],
          capturedAt: at(1),
        }),
        orderCaptured({
          name: 'Ben',
          email: 'ben-what-if@example.com',
          lines: [orderLine('Suite', 1, '50.00')],
          capturedAt: at(2),
        }),
        orderCaptured({
          name: 'Cat',
          email: 'cat-what-if@example.com',
          lines: [orderLine('Suite', 1, '700.00')],
          capturedAt: at(3),
        }),
      ];
      for (const order of orders) await appendOrder(store.eventStore, order.data.orderId, order);
      const period = { from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' };
      const response = await callApi(url, 'POST', '/api/admin/risk-rules/what-if', {
        cookie: admin,
        body: { draft: { holdAtOrAbove: '500.00' }, ...period },
      });
      expect(response.status).toBe(200);
      expect(whatIfResultSchema.parse(await response.json())).toEqual({
        ...period,
        orders: 3,
        held: 2,
        heldValue: '1300.00',
        heldLaterRefundedOrDenied: 0,
        currentRulesHeld: 0,
        perRule: [{ rule: 'order-total', held: 2, heldValue: '1300.00' }],
        perMonth: [
          {
            month: '2025-03',
            orders: 3,
            held: 2,
            heldValue: '1300.00',
            heldLaterRefundedOrDenied: 0,
            currentRulesHeld: 0,
          },
        ],
      });
      const [run] = (await readEvents(store.eventStore, RISK_WHAT_IF_STREAM)).slice(-1);
      expect(run).toMatchObject({
        type: 'RiskWhatIfRun',
        data: { draft: { holdAtOrAbove: '500.00' }, result: { held: 2 } },
        metadata: { actor: { type: 'admin', id: adminId } },
      });
      const byAuditor = await callApi(url, 'POST', '/api/admin/risk-rules/what-if', {
        cookie: auditor,
        body: { draft: {} },
      });
      expect(byAuditor.status).toBe(403);
      const backwards = await callApi(url, 'POST', '/api/admin/risk-rules/what-if', {
        cookie: admin,
        body: { draft: {}, from: period.to, to: period.from },
      });
      expect(backwards.status).toBe(400);
    });

    it('runs in the projections role: with none taking it, the run is withdrawn and the api says so', async () => {
      const runs = async () => (await readEvents(store.eventStore, RISK_WHAT_IF_STREAM)).length;
      const before = await runs();
      const response = await store.withProjectionsStopped(() =>
        callApi(url, 'POST', '/api/admin/risk-rules/what-if', {
          cookie: admin,
          body: { draft: { holdAtOrAbove: '1.00' } },
        }),
      );
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        error: 'No projections role took the what-if within 10 s; it was withdrawn',
      });
      // The role back does not run the withdrawn job: a run the admin was told of as not made is never recorded.
      const after = await callApi(url, 'POST', '/api/admin/risk-rules/what-if', {
        cookie: admin,
        body: { draft: { holdAtOrAbove: '1.00' } },
      });
      expect(after.status).toBe(200);
      expect(await runs()).toBe(before + 1);
    });
  });

  describe('when a held order is rejected', () => {
    it('refunds it in full and answers the approval racing it with a sentence', async () => {
      await putRules({ blockedEmailDomains: ['example.com'] });
      const productId = await store.productWithKeys(1);
      const bought = await purchase(url, productId, buyer());
      const decisions = await Promise.all([
        callApi(url, 'POST', `/api/admin/reviews/${bought.orderId}/reject`, {
          cookie: admin,
          body: { reason: 'The card was reported stolen' },
        }),
        callApi(url, 'POST', `/api/admin/reviews/${bought.orderId}/approve`, { cookie: admin }),
      ]);
      const statuses = decisions.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 409]);
      const loser = decisions.find((response) => response.status === 409) as Response;
      expect(((await loser.json()) as { error: string }).error).toMatch(
        /^Order #[0-9A-F]{8} was already (approved|rejected) by someone else: it cannot also be (approved|rejected)\.$/,
      );
      const types = await eventTypes(bought.orderId);
      if (types.includes('OrderRejected')) {
        expect(types).toEqual(
          expect.arrayContaining(['OrderRejected', 'OrderRefundRequested', 'OrderRefundCompleted']),
        );
        expect(types).not.toContain('OrderApproved');
      } else {
        expect(types).toContain('OrderApproved');
      }
    });

    it('says the money goes back in full', async () => {
      await putRules({ productQuantityAtOrAbove: 1 });
      const productId = await store.productWithKeys(1);
      const bought = await purchase(url, productId, buyer());
      const rejected = await callApi(url, 'POST', `/api/admin/reviews/${bought.orderId}/reject`, {
        cookie: admin,
        body: { reason: 'Too many licenses for one buyer' },
      });
      expect(rejected.status).toBe(200);
      expect(reviewDecisionViewSchema.parse(await rejected.json())).toMatchObject({
        reviewStatus: 'rejected',
        refund: { status: 'completed' },
      });
      await projected(bought.orderId);
      expect(await orderView(bought.orderId)).toMatchObject({ reviewStatus: 'rejected', status: 'refunded' });
      expect((await reviews('rejected', auditor)).map((review) => review.orderId)).toContain(bought.orderId);
    });

    it('refuses a reject without a reason, and decisions by auditors', async () => {
      await putRules({ holdAtOrAbove: '1.00' });
      const productId = await store.productWithKeys(1);
      const bought = await purchase(url, productId, buyer());
      const path = `/api/admin/reviews/${bought.orderId}`;
      expect((await callApi(url, 'POST', `${path}/reject`, { cookie: admin, body: {} })).status).toBe(400);
      expect((await callApi(url, 'POST', `${path}/approve`, { cookie: auditor })).status).toBe(403);
      expect(
        (await callApi(url, 'POST', `/api/admin/reviews/${randomUUID()}/approve`, { cookie: admin })).status,
      ).toBe(404);
      expect(await orderView(bought.orderId)).toMatchObject({ reviewStatus: 'held' });
    });
  });
});

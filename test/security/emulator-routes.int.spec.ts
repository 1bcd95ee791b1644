// The PayPal emulator on the store's origin (simulated payments) answers the routes PayPal itself has as PayPal does,
// and its own routes (settle captures, send webhooks on request, list deliveries and events) only to a caller with
// its credentials: an anonymous one could otherwise list PayPal order ids or mark any order refunded.
import { clientAuthorization } from '@licensestore/paypal-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../services/api/test/support/api.js';
import { emulatorAccessToken } from '../../services/paypal-sandbox/test/support/sandbox.js';

const CARD = { name: 'Ada Buyer', number: '4111111111111111', security_code: '123' };
const PENDING_CARD = { ...CARD, number: '4000000000000259' };
const DELIVERIES = { method: 'GET', path: '/simulate/deliveries' };

describe('The PayPal emulator mounted by the store', () => {
  let api: TestApi;
  let emulator: string;
  let token: string;
  /** A captured PayPal order, its capture, and the event the emulator sent about it. */
  let captured: { orderId: string; captureId: string; eventId: string };
  let pending: { orderId: string; captureId: string };

  const rest = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${emulator}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const capture = async (card: typeof CARD) => {
    const created = await rest('POST', '/v2/checkout/orders', {
      intent: 'CAPTURE',
      purchase_units: [{ amount: { currency_code: 'USD', value: '10.00' } }],
    });
    const orderId = created.body.id as string;
    const expiry = `${new Date().getUTCFullYear() + 2}-07`;
    await rest('POST', `/v2/checkout/orders/${orderId}/confirm-payment-source`, {
      payment_source: { card: { ...card, expiry } },
    });
    const done = await rest('POST', `/v2/checkout/orders/${orderId}/capture`);
    expect(done.status).toBe(201);
    const units = done.body.purchase_units as Array<{ payments: { captures: Array<{ id: string }> } }>;
    return { orderId, captureId: units[0]?.payments.captures[0]?.id as string };
  };

  beforeAll(async () => {
    api = await startTestApi();
    emulator = `${api.url}/paypal-sandbox`;
    token = await emulatorAccessToken(emulator);
    const first = await capture(CARD);
    const deliveries = await fetch(`${emulator}/simulate/deliveries`, {
      headers: { authorization: clientAuthorization() },
    });
    const [delivery] = (await deliveries.json()) as Array<{ event_id: string }>;
    captured = { ...first, eventId: delivery?.event_id as string };
    pending = await capture(PENDING_CARD);
  });
  afterAll(() => api?.stop());

  const emulatorOwnRoutes = () => [
    DELIVERIES,
    {
      method: 'POST',
      path: `/simulate/orders/${captured.orderId}/webhook`,
      body: { event_type: 'PAYMENT.CAPTURE.REFUNDED' },
    },
    { method: 'POST', path: `/simulate/orders/${captured.orderId}/resend-webhook` },
    { method: 'POST', path: `/simulate/orders/${pending.orderId}/complete` },
    { method: 'POST', path: `/simulate/captures/${pending.captureId}/deny` },
    { method: 'POST', path: `/simulate/orders/${captured.orderId}/refund` },
    {
      method: 'POST',
      path: `/simulate/orders/${captured.orderId}/refund-failure`,
      body: { issue: 'REFUND_FAILED_INSUFFICIENT_FUNDS' },
    },
    { method: 'GET', path: `/v1/notifications/webhooks-events/${captured.eventId}` },
    { method: 'POST', path: `/v1/notifications/webhooks-events/${captured.eventId}/resend` },
  ];

  const call = (route: { method: string; path: string; body?: unknown }, authorization?: string) =>
    fetch(`${emulator}${route.path}`, {
      method: route.method,
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(route.body ? { 'content-type': 'application/json' } : {}),
      },
      body: route.body ? JSON.stringify(route.body) : undefined,
    });

  const sentTypes = async () =>
    ((await (await call(DELIVERIES, clientAuthorization())).json()) as Array<{ event_type: string }>).map(
      (delivery) => delivery.event_type,
    );

  it('refuses anonymous callers its own routes and the webhook events, changing nothing', async () => {
    for (const route of emulatorOwnRoutes()) {
      for (const authorization of [undefined, 'Basic c2ItZW11bGF0b3ItY2xpZW50Ondyb25n', 'Bearer made-up']) {
        const response = await call(route, authorization);
        const body = (await response.json()) as { name?: string };
        expect([route.path, authorization, response.status]).toEqual([route.path, authorization, 401]);
        expect(body.name).toBe('AUTHENTICATION_FAILURE');
        expect(JSON.stringify(body)).not.toContain(captured.orderId);
      }
    }
    // Nothing refunded, the pending capture neither completed nor denied.
    expect(await sentTypes()).not.toContain('PAYMENT.CAPTURE.REFUNDED');
    expect((await rest('GET', `/v2/payments/captures/${pending.captureId}`)).body.status).toBe('PENDING');
  });

  it.each([
    ['its client credentials', () => clientAuthorization()],
    ['a token from its OAuth endpoint', () => `Bearer ${token}`],
  ])('answers its own routes to a caller with %s', async (_how, authorization) => {
    expect((await call(DELIVERIES, authorization())).status).toBe(200);
    const sent = await call(
      {
        method: 'POST',
        path: `/simulate/orders/${captured.orderId}/webhook`,
        body: { event_type: 'PAYMENT.CAPTURE.REVERSED' },
      },
      authorization(),
    );
    expect(sent.status).toBe(200);
  });

  it('answers the webhook events, as PayPal does, to a caller with a token', async () => {
    const path = `/v1/notifications/webhooks-events/${captured.eventId}`;
    expect((await call({ method: 'GET', path }, `Bearer ${token}`)).status).toBe(200);
  });

  it("keeps the buyer's side open, as PayPal's is: the SDK and the approval it calls from the browser", async () => {
    expect((await fetch(`${emulator}/sdk/js?client-id=sb-emulator-client`)).status).toBe(200);
    const created = await rest('POST', '/v2/checkout/orders', {
      intent: 'CAPTURE',
      purchase_units: [{ amount: { currency_code: 'USD', value: '5.00' } }],
    });
    const approved = await fetch(`${emulator}/buyer/orders/${created.body.id}/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ choice: 'approve' }),
    });
    expect(approved.status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureExpiry, orderRequest, type PaypalClient, startSandbox } from './support/sandbox.js';

type Running = Awaited<ReturnType<typeof startSandbox>>;

let running: Running;
let paypal: PaypalClient;

beforeAll(async () => {
  running = await startSandbox();
  paypal = running.client;
});
afterAll(async () => {
  await running.stop();
});

const ORDER_ID = /^[A-Z0-9]{17}$/;

const expectPaypalError = (
  reply: { status: number; body: Record<string, unknown> },
  status: number,
  name: string,
  issue?: string,
) => {
  expect(reply.status).toBe(status);
  expect(reply.body).toMatchObject({ name, message: expect.any(String), debug_id: expect.any(String) });
  expect(Array.isArray(reply.body.details)).toBe(true);
  expect(Array.isArray(reply.body.links)).toBe(true);
  if (issue) {
    expect(reply.body.details).toContainEqual(
      expect.objectContaining({ issue, description: expect.any(String) }),
    );
  }
};

async function approvedOrder(card = '4111111111111111', customId = 'store-order-1') {
  const id = await paypal.createOrder(customId);
  const approval = await paypal.approveWithCard(id, card);
  expect(approval.status).toBe(200);
  return id;
}

async function capturedOrder(card = '4111111111111111') {
  const id = await approvedOrder(card);
  const capture = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
  expect(capture.status).toBe(201);
  return { id, captureId: capture.body.purchase_units[0].payments.captures[0].id as string };
}

describe('PayPal sandbox REST', () => {
  describe('POST /v1/oauth2/token', () => {
    it('issues a bearer token for the sandbox credentials', async () => {
      const reply = await paypal.authenticate();
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        scope: expect.stringContaining('https://uri.paypal.com/services/payments/payment'),
        access_token: expect.stringMatching(/^A21AA/),
        token_type: 'Bearer',
        app_id: expect.stringMatching(/^APP-/),
        expires_in: 32400,
        nonce: expect.any(String),
      });
    });

    it('refuses a wrong secret with invalid_client', async () => {
      const reply = await fetch(`${running.baseUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('sb-emulator-client:wrong').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      });
      expect(reply.status).toBe(401);
      expect(await reply.json()).toEqual({
        error: 'invalid_client',
        error_description: 'Client Authentication failed',
      });
    });

    it('refuses a request without a grant type', async () => {
      const reply = await fetch(`${running.baseUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('sb-emulator-client:sb-emulator-secret').toString('base64')}`,
        },
      });
      expect(reply.status).toBe(400);
      expect(await reply.json()).toMatchObject({ error: 'unsupported_grant_type' });
    });
  });

  describe('when the bearer token is missing or unknown', () => {
    it.each([
      ['missing', {}],
      ['unknown', { authorization: 'Bearer A21AAnot-a-token' }],
    ])('answers 401 AUTHENTICATION_FAILURE (%s)', async (_case, headers) => {
      const reply = await fetch(`${running.baseUrl}/v2/checkout/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(orderRequest()),
      });
      expectPaypalError(
        { status: reply.status, body: (await reply.json()) as Record<string, unknown> },
        401,
        'AUTHENTICATION_FAILURE',
      );
    });
  });

  describe('POST /v2/checkout/orders', () => {
    it('creates a CREATED order and answers minimally by default', async () => {
      const reply = await paypal.request('POST', '/v2/checkout/orders', orderRequest());
      expect(reply.status).toBe(201);
      expect(reply.body.id).toMatch(ORDER_ID);
      expect(reply.body.status).toBe('CREATED');
      expect(reply.body.purchase_units).toBeUndefined();
      expect(reply.body.links.map((link: { rel: string }) => link.rel)).toEqual([
        'self',
        'approve',
        'update',
        'capture',
      ]);
      expect(reply.body.links[0].href).toBe(`${running.baseUrl}/v2/checkout/orders/${reply.body.id}`);
    });

    it('returns the whole order with Prefer: return=representation', async () => {
      const reply = await paypal.request('POST', '/v2/checkout/orders', orderRequest('ord-42'), {
        prefer: 'return=representation',
      });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({
        intent: 'CAPTURE',
        status: 'CREATED',
        purchase_units: [
          {
            reference_id: 'default',
            custom_id: 'ord-42',
            amount: { currency_code: 'USD', value: '29.99', breakdown: { item_total: { value: '29.99' } } },
            payee: { email_address: expect.any(String), merchant_id: expect.any(String) },
            items: [
              {
                name: 'Windows 11 Pro',
                quantity: '2',
                unit_amount: { currency_code: 'USD', value: '10.00' },
              },
              { name: 'Norton 360', quantity: '1', unit_amount: { currency_code: 'USD', value: '9.99' } },
            ],
          },
        ],
        create_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      });
    });

    it('replays a PayPal-Request-Id with 200 and the same order', async () => {
      const headers = { 'paypal-request-id': `create-${Math.random()}` };
      const first = await paypal.request('POST', '/v2/checkout/orders', orderRequest(), headers);
      const again = await paypal.request('POST', '/v2/checkout/orders', orderRequest(), headers);
      const other = await paypal.request('POST', '/v2/checkout/orders', orderRequest(), {
        'paypal-request-id': `create-${Math.random()}`,
      });
      expect([first.status, again.status, other.status]).toEqual([201, 200, 201]);
      expect(again.body.id).toBe(first.body.id);
      expect(other.body.id).not.toBe(first.body.id);
    });

    const withUnit = (unit: Record<string, unknown>) => ({ intent: 'CAPTURE', purchase_units: [unit] });
    const usd = (value: string) => ({ currency_code: 'USD', value });

    it.each([
      [
        'ITEM_TOTAL_MISMATCH',
        withUnit({
          amount: { ...usd('30.00'), breakdown: { item_total: usd('30.00') } },
          items: [{ name: 'A', quantity: '2', unit_amount: usd('10.00') }],
        }),
        "/purchase_units/@reference_id=='default'/amount/breakdown/item_total/value",
      ],
      [
        'AMOUNT_MISMATCH',
        withUnit({
          amount: { ...usd('25.00'), breakdown: { item_total: usd('20.00') } },
          items: [{ name: 'A', quantity: '2', unit_amount: usd('10.00') }],
        }),
        "/purchase_units/@reference_id=='default'/amount/value",
      ],
      [
        'DECIMAL_PRECISION',
        withUnit({ amount: usd('10.001') }),
        "/purchase_units/@reference_id=='default'/amount/value",
      ],
      [
        'ITEM_TOTAL_REQUIRED',
        withUnit({ amount: usd('10.00'), items: [{ name: 'A', quantity: '1', unit_amount: usd('10.00') }] }),
        "/purchase_units/@reference_id=='default'/amount/breakdown/item_total",
      ],
      [
        'CANNOT_BE_ZERO_OR_NEGATIVE',
        withUnit({ amount: usd('0.00') }),
        "/purchase_units/@reference_id=='default'/amount/value",
      ],
      [
        'INVALID_CURRENCY_CODE',
        withUnit({ amount: { currency_code: 'XXX', value: '1.00' } }),
        "/purchase_units/@reference_id=='default'/amount/currency_code",
      ],
    ])('answers 422 %s', async (issue, body, field) => {
      const reply = await paypal.request('POST', '/v2/checkout/orders', body);
      expectPaypalError(reply, 422, 'UNPROCESSABLE_ENTITY', issue);
      expect(reply.body.details[0]).toMatchObject({ issue, field, location: 'body' });
      expect(reply.body.links[0]).toEqual({
        href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue}`,
        rel: 'information_link',
        method: 'GET',
      });
    });

    it('answers 400 INVALID_REQUEST with one detail per malformed field', async () => {
      const reply = await paypal.request('POST', '/v2/checkout/orders', {
        purchase_units: [{ amount: { currency_code: 'USD', value: 'ten' } }],
      });
      expectPaypalError(reply, 400, 'INVALID_REQUEST');
      expect(reply.body.details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            field: '/intent',
            issue: 'MISSING_REQUIRED_PARAMETER',
            location: 'body',
          }),
          expect.objectContaining({
            field: "/purchase_units/@reference_id=='default'/amount/value",
            value: 'ten',
            issue: 'INVALID_PARAMETER_SYNTAX',
          }),
        ]),
      );
    });

    it('answers 400 MALFORMED_REQUEST_JSON for a body that is not JSON', async () => {
      const reply = await paypal.request('POST', '/v2/checkout/orders', '{"intent":');
      expectPaypalError(reply, 400, 'INVALID_REQUEST', 'MALFORMED_REQUEST_JSON');
    });
  });

  describe('GET /v2/checkout/orders/{id}', () => {
    it('shows the order', async () => {
      const id = await paypal.createOrder('shown');
      const reply = await paypal.request('GET', `/v2/checkout/orders/${id}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ id, status: 'CREATED', purchase_units: [{ custom_id: 'shown' }] });
      expect(reply.body.payer).toBeUndefined();
    });

    it('answers 404 RESOURCE_NOT_FOUND for an unknown id', async () => {
      const reply = await paypal.request('GET', '/v2/checkout/orders/NOSUCHORDER12345');
      expectPaypalError(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
      expect(reply.body.details[0]).toMatchObject({ value: 'NOSUCHORDER12345', location: 'path' });
    });
  });

  describe('POST /v2/checkout/orders/{id}/confirm-payment-source', () => {
    it('approves the order with a card and never echoes the number', async () => {
      const id = await paypal.createOrder();
      const reply = await paypal.approveWithCard(id, '5555555555554444');
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        id,
        status: 'APPROVED',
        payment_source: {
          card: { last_digits: '4444', brand: 'MASTERCARD', type: 'CREDIT', name: 'Jane Buyer' },
        },
      });
      expect(JSON.stringify(reply.body)).not.toContain('5555555555554444');
    });

    const lastYear = `${new Date().getUTCFullYear() - 1}-12`;
    it.each([
      ['a number failing Luhn', { number: '4111111111111112' }, 400, 'INVALID_PARAMETER_VALUE'],
      ['an expired card', { expiry: lastYear }, 422, 'CARD_EXPIRED'],
      ['a 4-digit CVV on a Visa', { security_code: '1234' }, 422, 'INVALID_SECURITY_CODE_LENGTH'],
      ['an unsupported brand', { number: '9999999999999995' }, 422, 'CARD_TYPE_NOT_SUPPORTED'],
      [
        'the declined-at-confirm test card',
        { number: '4000000000009995' },
        422,
        'PAYMENT_SOURCE_DECLINED_BY_PROCESSOR',
      ],
      ['an expiry not in YYYY-MM', { expiry: '12/30' }, 400, 'INVALID_PARAMETER_SYNTAX'],
      ['no number', { number: undefined }, 422, 'CARD_NUMBER_REQUIRED'],
    ])('refuses %s', async (_case, change, status, issue) => {
      const id = await paypal.createOrder();
      const card = {
        name: 'Jane',
        number: '4111111111111111',
        expiry: futureExpiry(),
        security_code: '123',
        ...change,
      };
      const reply = await paypal.request('POST', `/v2/checkout/orders/${id}/confirm-payment-source`, {
        payment_source: { card },
      });
      expectPaypalError(reply, status, status === 400 ? 'INVALID_REQUEST' : 'UNPROCESSABLE_ENTITY', issue);
      expect((await paypal.request('GET', `/v2/checkout/orders/${id}`)).body.status).toBe('CREATED');
    });

    it('refuses to confirm a completed order', async () => {
      const { id } = await capturedOrder();
      const reply = await paypal.approveWithCard(id);
      expectPaypalError(reply, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_CANNOT_BE_CONFIRMED');
    });
  });

  describe('POST /v2/checkout/orders/{id}/capture', () => {
    it('answers 422 ORDER_NOT_APPROVED before the buyer approved', async () => {
      const id = await paypal.createOrder();
      const reply = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
      expectPaypalError(reply, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED');
    });

    it('captures an approved order: 201, order COMPLETED, one COMPLETED capture', async () => {
      const id = await approvedOrder('4111111111111111', 'store-77');
      const reply = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`, undefined, {
        'paypal-request-id': `capture-${id}`,
      });
      expect(reply.status).toBe(201);
      expect(reply.body.status).toBe('COMPLETED');
      const captures = reply.body.purchase_units[0].payments.captures;
      expect(captures).toHaveLength(1);
      expect(captures[0]).toMatchObject({
        id: expect.stringMatching(ORDER_ID),
        status: 'COMPLETED',
        amount: { currency_code: 'USD', value: '29.99' },
        final_capture: true,
        seller_protection: { status: expect.any(String) },
        seller_receivable_breakdown: { gross_amount: { value: '29.99' } },
        custom_id: 'store-77',
        create_time: expect.any(String),
        update_time: expect.any(String),
      });
      const shown = await paypal.request('GET', `/v2/checkout/orders/${id}`);
      expect(shown.body.status).toBe('COMPLETED');
      expect(shown.body.purchase_units[0].payments.captures[0].id).toBe(captures[0].id);
    });

    it('replays the same PayPal-Request-Id with 200 and refuses another with ORDER_ALREADY_CAPTURED', async () => {
      const id = await approvedOrder();
      const headers = { 'paypal-request-id': `capture-${id}` };
      const first = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`, undefined, headers);
      const replay = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`, undefined, headers);
      const other = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`, undefined, {
        'paypal-request-id': `other-${id}`,
      });
      const bare = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
      expect([first.status, replay.status]).toEqual([201, 200]);
      expect(replay.body).toEqual(first.body);
      expectPaypalError(other, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED');
      expectPaypalError(bare, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED');
    });

    it('captures once when requests with one PayPal-Request-Id arrive together', async () => {
      const id = await approvedOrder();
      const headers = { 'paypal-request-id': `capture-${id}` };
      const replies = await Promise.all(
        Array.from({ length: 5 }, () =>
          paypal.request('POST', `/v2/checkout/orders/${id}/capture`, undefined, headers),
        ),
      );
      expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 200, 200, 201]);
      const captureIds = new Set(
        replies.map((reply) => reply.body.purchase_units[0].payments.captures[0].id),
      );
      expect(captureIds.size).toBe(1);
      const order = running.sandbox.state.orders.get(id);
      expect(order?.purchase_units[0]?.payments?.captures).toHaveLength(1);
    });

    it('answers 422 INSTRUMENT_DECLINED for the declining card and leaves the order APPROVED', async () => {
      const id = await approvedOrder('4000000000000002');
      const reply = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
      expectPaypalError(reply, 422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED');
      expect((await paypal.request('GET', `/v2/checkout/orders/${id}`)).body.status).toBe('APPROVED');
    });

    it('leaves the capture PENDING for the pending-review card', async () => {
      const id = await approvedOrder('4000000000000259');
      const reply = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
      expect(reply.status).toBe(201);
      expect(reply.body.status).toBe('COMPLETED');
      expect(reply.body.purchase_units[0].payments.captures[0]).toMatchObject({
        status: 'PENDING',
        status_details: { reason: 'PENDING_REVIEW' },
      });
    });

    it('answers 500 INTERNAL_SERVER_ERROR for the provider-error card', async () => {
      const id = await approvedOrder('4000000000000119');
      const reply = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
      expectPaypalError(reply, 500, 'INTERNAL_SERVER_ERROR');
      expect((await paypal.request('GET', `/v2/checkout/orders/${id}`)).body.status).toBe('APPROVED');
    });

    it('honours PayPal-Mock-Response without touching the order', async () => {
      const id = await approvedOrder();
      const declined = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`, undefined, {
        'paypal-mock-response': JSON.stringify({ mock_application_codes: 'INSTRUMENT_DECLINED' }),
      });
      expectPaypalError(declined, 422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED');
      const failed = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`, undefined, {
        'paypal-mock-response': '{"mock_application_codes": "INTERNAL_SERVER_ERROR"}',
      });
      expectPaypalError(failed, 500, 'INTERNAL_SERVER_ERROR');
      const captured = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
      expect(captured.status).toBe(201);
    });

    it('answers 404 for an unknown order', async () => {
      const reply = await paypal.request('POST', '/v2/checkout/orders/NOSUCHORDER12345/capture');
      expectPaypalError(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    });
  });

  describe('when the buyer approves in PayPal (buttons)', () => {
    const approve = (id: string, choice: string) =>
      fetch(`${running.baseUrl}/buyer/orders/${id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ choice, currency: 'USD' }),
      });

    it('records the payer and approves the order', async () => {
      const id = await paypal.createOrder();
      const reply = await approve(id, 'approve');
      expect(reply.status).toBe(200);
      const body = (await reply.json()) as { payerID: string };
      const order = await paypal.request('GET', `/v2/checkout/orders/${id}`);
      expect(order.body).toMatchObject({
        status: 'APPROVED',
        payer: { payer_id: body.payerID, email_address: expect.any(String) },
        payment_source: { paypal: { account_id: body.payerID } },
      });
    });

    it('declines at capture with a redirect link when the buyer chose decline', async () => {
      const id = await paypal.createOrder();
      await approve(id, 'decline');
      const reply = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
      expectPaypalError(reply, 422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED');
      expect(reply.body.links).toContainEqual(expect.objectContaining({ rel: 'redirect' }));
      await approve(id, 'approve');
      expect((await paypal.request('POST', `/v2/checkout/orders/${id}/capture`)).status).toBe(201);
    });

    it('refuses an SDK loaded with another currency', async () => {
      const id = await paypal.createOrder();
      const reply = await fetch(`${running.baseUrl}/buyer/orders/${id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ choice: 'approve', currency: 'EUR' }),
      });
      expect(reply.status).toBe(422);
    });

    it('approves through the approve link and returns to the return_url', async () => {
      const reply = await paypal.request('POST', '/v2/checkout/orders', {
        ...orderRequest(),
        payment_source: { paypal: { experience_context: { return_url: 'https://store.example/return' } } },
      });
      const approveLink = reply.body.links.find((link: { rel: string }) => link.rel === 'approve').href;
      const redirect = await fetch(approveLink, { redirect: 'manual' });
      expect(redirect.status).toBe(303);
      expect(redirect.headers.get('location')).toMatch(
        new RegExp(`^https://store\\.example/return\\?token=${reply.body.id}&PayerID=[A-Z0-9]+$`),
      );
    });
  });

  describe('GET /v2/payments/captures/{id}', () => {
    it('links the capture to its order', async () => {
      const { id, captureId } = await capturedOrder();
      const reply = await paypal.request('GET', `/v2/payments/captures/${captureId}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        id: captureId,
        status: 'COMPLETED',
        supplementary_data: { related_ids: { order_id: id } },
      });
    });
  });

  describe('POST /v2/payments/captures/{id}/refund', () => {
    it('refunds in full: 201 COMPLETED refund, capture REFUNDED, a second refund refused', async () => {
      const { id, captureId } = await capturedOrder();
      const reply = await paypal.request('POST', `/v2/payments/captures/${captureId}/refund`, {});
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({
        id: expect.stringMatching(ORDER_ID),
        status: 'COMPLETED',
        amount: { currency_code: 'USD', value: '29.99' },
      });
      const order = await paypal.request('GET', `/v2/checkout/orders/${id}`);
      expect(order.body.purchase_units[0].payments.captures[0].status).toBe('REFUNDED');
      expect(order.body.purchase_units[0].payments.refunds[0].id).toBe(reply.body.id);
      const again = await paypal.request('POST', `/v2/payments/captures/${captureId}/refund`);
      expectPaypalError(again, 422, 'UNPROCESSABLE_ENTITY', 'CAPTURE_FULLY_REFUNDED');
    });

    it('refunds in part and refuses more than what is left', async () => {
      const { captureId } = await capturedOrder();
      const part = await paypal.request('POST', `/v2/payments/captures/${captureId}/refund`, {
        amount: { currency_code: 'USD', value: '10.00' },
      });
      expect(part.status).toBe(201);
      expect((await paypal.request('GET', `/v2/payments/captures/${captureId}`)).body.status).toBe(
        'PARTIALLY_REFUNDED',
      );
      const tooMuch = await paypal.request('POST', `/v2/payments/captures/${captureId}/refund`, {
        amount: { currency_code: 'USD', value: '20.00' },
      });
      expectPaypalError(tooMuch, 422, 'UNPROCESSABLE_ENTITY', 'REFUND_AMOUNT_EXCEEDED');
    });

    it('replays a PayPal-Request-Id with the same refund', async () => {
      const { captureId } = await capturedOrder();
      const headers = { 'paypal-request-id': `refund-${captureId}` };
      const first = await paypal.request('POST', `/v2/payments/captures/${captureId}/refund`, {}, headers);
      const again = await paypal.request('POST', `/v2/payments/captures/${captureId}/refund`, {}, headers);
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.body.id).toBe(first.body.id);
    });

    it('refuses to refund a pending capture', async () => {
      const { captureId } = await capturedOrder('4000000000000259');
      const reply = await paypal.request('POST', `/v2/payments/captures/${captureId}/refund`);
      expectPaypalError(reply, 422, 'UNPROCESSABLE_ENTITY', 'PENDING_CAPTURE');
    });

    it('answers 404 for an unknown capture', async () => {
      const reply = await paypal.request('POST', '/v2/payments/captures/NOSUCHCAPTURE1234/refund');
      expectPaypalError(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    });
  });

  describe('GET /sdk/js', () => {
    it('serves the SDK as JavaScript', async () => {
      const reply = await fetch(
        `${running.baseUrl}/sdk/js?client-id=sb-emulator-client&currency=USD&intent=capture&components=buttons,card-fields`,
      );
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/javascript/);
      expect(reply.headers.get('cache-control')).toBe('no-cache');
      expect(await reply.text()).toContain('CardFields');
    });

    it.each([
      ['without a client id', '?currency=USD'],
      ['with an unsupported currency', '?client-id=x&currency=XYZ'],
    ])('answers 400 %s, never cached', async (_case, query) => {
      const reply = await fetch(`${running.baseUrl}/sdk/js${query}`);
      expect(reply.status).toBe(400);
      expect(reply.headers.get('cache-control')).toBe('no-store');
      expect(await reply.text()).toContain('SDK Validation error');
    });
  });
});

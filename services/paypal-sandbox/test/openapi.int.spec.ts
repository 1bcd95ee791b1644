import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAuthorization } from '../src/index.js';
import { openApiValidator, type SpecName } from './support/openapi.js';
import {
  ofType,
  orderRequest,
  type PaypalClient,
  type Reply,
  startSandbox,
  startWebhookReceiver,
} from './support/sandbox.js';

/*
 * A whole purchase and what follows it, as the store (and PayPal's own dashboard) drive the emulator over HTTP;
 * every answer's body must be an instance of the response schema PayPal publishes for that operation and status.
 */

type Running = Awaited<ReturnType<typeof startSandbox>>;
type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

const ORDERS = '/v2/checkout/orders';
const ORDER = '/v2/checkout/orders/{id}';
const CONFIRM = '/v2/checkout/orders/{id}/confirm-payment-source';
const CAPTURE = '/v2/checkout/orders/{id}/capture';
const GET_CAPTURE = '/v2/payments/captures/{capture_id}';
const REFUND = '/v2/payments/captures/{capture_id}/refund';
const GET_REFUND = '/v2/payments/refunds/{refund_id}';

const validator = openApiValidator();
let running: Running;
let receiver: Receiver;
let paypal: PaypalClient;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  running = await startSandbox({ webhookUrl: receiver.url, captureLatencyMs: 0 });
  paypal = running.client;
});
afterAll(async () => {
  await running.stop();
  await receiver.stop();
});

/** Asserts the status the scenario expects, then that the body conforms to the specification. */
function conforms(spec: SpecName, method: string, path: string, reply: Reply, status: number) {
  expect({ status: reply.status, body: reply.body }).toMatchObject({ status });
  expect(validator.check(spec, method, path, reply.status, reply.body)).toBeNull();
}

const card = (number: string) => ({
  payment_source: {
    card: {
      name: 'Jane Buyer',
      number,
      expiry: `${new Date().getUTCFullYear() + 2}-07`,
      security_code: '123',
    },
  },
});

const ids = {
  created: '',
  paid: '',
  capture: '',
  partialRefund: '',
  pendingOrder: '',
  pendingCapture: '',
  walletOrder: '',
  walletCapture: '',
};

describe('The emulator against PayPal’s published OpenAPI specifications', () => {
  describe('Orders v2', () => {
    it('create (minimal answer) → 201', async () => {
      const reply = await paypal.request('POST', ORDERS, orderRequest('store-order-1'));
      ids.created = reply.body.id;
      conforms('orders', 'POST', ORDERS, reply, 201);
    });

    it('create with Prefer: return=representation → 201 with the whole order', async () => {
      const reply = await paypal.request('POST', ORDERS, orderRequest('store-order-2'), {
        prefer: 'return=representation',
        'paypal-request-id': 'conformance-create-1',
      });
      ids.paid = reply.body.id;
      conforms('orders', 'POST', ORDERS, reply, 201);
    });

    it('create replayed with the same PayPal-Request-Id → 200', async () => {
      const reply = await paypal.request('POST', ORDERS, orderRequest('store-order-2'), {
        prefer: 'return=representation',
        'paypal-request-id': 'conformance-create-1',
      });
      conforms('orders', 'POST', ORDERS, reply, 200);
      expect(reply.body.id).toBe(ids.paid);
    });

    it('create without purchase units → 400 MISSING_REQUIRED_PARAMETER', async () => {
      const reply = await paypal.request('POST', ORDERS, { intent: 'CAPTURE' });
      conforms('orders', 'POST', ORDERS, reply, 400);
    });

    it('create with a malformed amount → 400 INVALID_PARAMETER_SYNTAX', async () => {
      const request = orderRequest();
      const unit = request.purchase_units[0];
      if (unit) unit.amount.value = '29.9.9';
      const reply = await paypal.request('POST', ORDERS, request);
      conforms('orders', 'POST', ORDERS, reply, 400);
    });

    it('create with a body that is not JSON → 400 MALFORMED_REQUEST_JSON', async () => {
      const reply = await paypal.request('POST', ORDERS, '{"intent": ', {
        'content-type': 'application/json',
      });
      conforms('orders', 'POST', ORDERS, reply, 400);
    });

    it('create whose items do not add up → 422 ITEM_TOTAL_MISMATCH', async () => {
      const request = orderRequest();
      const unit = request.purchase_units[0];
      if (unit) {
        unit.amount.value = '30.00';
        unit.amount.breakdown.item_total.value = '30.00';
      }
      const reply = await paypal.request('POST', ORDERS, request);
      conforms('orders', 'POST', ORDERS, reply, 422);
    });

    it('create in an unsupported currency → 422', async () => {
      const request = orderRequest();
      const unit = request.purchase_units[0];
      if (unit) {
        unit.amount.currency_code = 'XYZ';
      }
      const reply = await paypal.request('POST', ORDERS, request);
      conforms('orders', 'POST', ORDERS, reply, 422);
    });

    it('create with three decimals → 422 DECIMAL_PRECISION', async () => {
      const request = orderRequest();
      const unit = request.purchase_units[0];
      if (unit) {
        unit.amount.value = '29.990';
        unit.amount.breakdown.item_total.value = '29.990';
      }
      const reply = await paypal.request('POST', ORDERS, request);
      conforms('orders', 'POST', ORDERS, reply, 422);
    });

    it('create without a token → 401', async () => {
      const response = await fetch(`${running.baseUrl}${ORDERS}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(orderRequest()),
      });
      conforms(
        'orders',
        'POST',
        ORDERS,
        {
          status: response.status,
          body: (await response.json()) as Record<string, unknown>,
          headers: response.headers,
        },
        401,
      );
    });

    it('get a created order → 200', async () => {
      const reply = await paypal.request('GET', `${ORDERS}/${ids.created}`);
      conforms('orders', 'GET', ORDER, reply, 200);
    });

    it('get an unknown order → 404', async () => {
      const reply = await paypal.request('GET', `${ORDERS}/0000000000000000X`);
      conforms('orders', 'GET', ORDER, reply, 404);
    });

    it('capture before approval → 422 ORDER_NOT_APPROVED', async () => {
      const reply = await paypal.request('POST', `${ORDERS}/${ids.created}/capture`);
      conforms('orders', 'POST', CAPTURE, reply, 422);
    });

    it('confirm a card → 200 APPROVED', async () => {
      const reply = await paypal.request(
        'POST',
        `${ORDERS}/${ids.paid}/confirm-payment-source`,
        card('4111111111111111'),
      );
      conforms('orders', 'POST', CONFIRM, reply, 200);
    });

    it('confirm a card without its number → 400 or 422', async () => {
      const reply = await paypal.request('POST', `${ORDERS}/${ids.created}/confirm-payment-source`, {
        payment_source: { card: { name: 'Jane Buyer', expiry: '2031-07', security_code: '123' } },
      });
      expect([400, 422]).toContain(reply.status);
      conforms('orders', 'POST', CONFIRM, reply, reply.status);
    });

    it('confirm a card declined at once → 422 INSTRUMENT_DECLINED', async () => {
      const reply = await paypal.request(
        'POST',
        `${ORDERS}/${ids.created}/confirm-payment-source`,
        card('4000000000009995'),
      );
      conforms('orders', 'POST', CONFIRM, reply, 422);
    });

    it('confirm an expired card → 422 CARD_EXPIRED', async () => {
      const expired = card('4111111111111111');
      expired.payment_source.card.expiry = '2020-01';
      const reply = await paypal.request('POST', `${ORDERS}/${ids.created}/confirm-payment-source`, expired);
      conforms('orders', 'POST', CONFIRM, reply, 422);
    });

    it('capture → 201 COMPLETED', async () => {
      const reply = await paypal.request('POST', `${ORDERS}/${ids.paid}/capture`, undefined, {
        prefer: 'return=representation',
        'paypal-request-id': `capture-${ids.paid}`,
      });
      ids.capture = reply.body.purchase_units[0].payments.captures[0].id;
      conforms('orders', 'POST', CAPTURE, reply, 201);
      expect(reply.body.purchase_units[0].payments.captures[0].status).toBe('COMPLETED');
    });

    it('capture replayed with the same PayPal-Request-Id → 200, the first answer', async () => {
      const reply = await paypal.request('POST', `${ORDERS}/${ids.paid}/capture`, undefined, {
        prefer: 'return=representation',
        'paypal-request-id': `capture-${ids.paid}`,
      });
      conforms('orders', 'POST', CAPTURE, reply, 200);
    });

    it('capture again → 422 ORDER_ALREADY_CAPTURED', async () => {
      const reply = await paypal.request('POST', `${ORDERS}/${ids.paid}/capture`);
      conforms('orders', 'POST', CAPTURE, reply, 422);
    });

    it('get the captured order → 200', async () => {
      const reply = await paypal.request('GET', `${ORDERS}/${ids.paid}`);
      conforms('orders', 'GET', ORDER, reply, 200);
    });

    it('capture a card that the bank declines → 422 INSTRUMENT_DECLINED', async () => {
      const id = await paypal.createOrder('store-order-declined');
      await paypal.request('POST', `${ORDERS}/${id}/confirm-payment-source`, card('4000000000000002'));
      const reply = await paypal.request('POST', `${ORDERS}/${id}/capture`);
      conforms('orders', 'POST', CAPTURE, reply, 422);
    });

    it('capture a PayPal wallet payment the bank declines → 422 INSTRUMENT_DECLINED with a redirect link', async () => {
      const id = await paypal.createOrder('store-order-wallet-declined');
      await buyerApproves(id, 'decline');
      const reply = await paypal.request('POST', `${ORDERS}/${id}/capture`);
      conforms('orders', 'POST', CAPTURE, reply, 422);
    });

    it('capture a card under review → 201 with a PENDING capture', async () => {
      ids.pendingOrder = await paypal.createOrder('store-order-pending');
      await paypal.request(
        'POST',
        `${ORDERS}/${ids.pendingOrder}/confirm-payment-source`,
        card('4000000000000259'),
      );
      const reply = await paypal.request('POST', `${ORDERS}/${ids.pendingOrder}/capture`, undefined, {
        prefer: 'return=representation',
      });
      ids.pendingCapture = reply.body.purchase_units[0].payments.captures[0].id;
      conforms('orders', 'POST', CAPTURE, reply, 201);
      expect(reply.body.purchase_units[0].payments.captures[0].status).toBe('PENDING');
    });

    it('capture a PayPal wallet payment → 201 with payer and payment source', async () => {
      ids.walletOrder = await paypal.createOrder('store-order-wallet');
      await buyerApproves(ids.walletOrder, 'approve');
      const reply = await paypal.request('POST', `${ORDERS}/${ids.walletOrder}/capture`, undefined, {
        prefer: 'return=representation',
      });
      ids.walletCapture = reply.body.purchase_units[0].payments.captures[0].id;
      conforms('orders', 'POST', CAPTURE, reply, 201);
    });

    it('get an order approved in PayPal’s window → 200', async () => {
      const id = await paypal.createOrder('store-order-approved');
      await buyerApproves(id, 'approve');
      const reply = await paypal.request('GET', `${ORDERS}/${id}`);
      conforms('orders', 'GET', ORDER, reply, 200);
    });

    it('capture when the processor fails → 500', async () => {
      const id = await paypal.createOrder('store-order-error');
      await paypal.request('POST', `${ORDERS}/${id}/confirm-payment-source`, card('4000000000000119'));
      const reply = await paypal.request('POST', `${ORDERS}/${id}/capture`);
      conforms('orders', 'POST', CAPTURE, reply, 500);
    });

    it('capture with PayPal-Mock-Response TRANSACTION_REFUSED → 422', async () => {
      const reply = await paypal.request('POST', `${ORDERS}/${ids.created}/capture`, undefined, {
        'paypal-mock-response': JSON.stringify({ mock_application_codes: 'TRANSACTION_REFUSED' }),
      });
      conforms('orders', 'POST', CAPTURE, reply, 422);
    });

    it('capture with PayPal-Mock-Response PERMISSION_DENIED → 403', async () => {
      const reply = await paypal.request('POST', `${ORDERS}/${ids.created}/capture`, undefined, {
        'paypal-mock-response': JSON.stringify({ mock_application_codes: 'PERMISSION_DENIED' }),
      });
      conforms('orders', 'POST', CAPTURE, reply, 403);
    });
  });

  describe('Payments v2', () => {
    it('get a capture → 200', async () => {
      const reply = await paypal.request('GET', `/v2/payments/captures/${ids.capture}`);
      conforms('payments', 'GET', GET_CAPTURE, reply, 200);
    });

    it('get a PENDING capture → 200', async () => {
      const reply = await paypal.request('GET', `/v2/payments/captures/${ids.pendingCapture}`);
      conforms('payments', 'GET', GET_CAPTURE, reply, 200);
    });

    it('get an unknown capture → 404', async () => {
      const reply = await paypal.request('GET', '/v2/payments/captures/0000000000000000X');
      conforms('payments', 'GET', GET_CAPTURE, reply, 404);
    });

    it('refund part of a capture → 201 COMPLETED', async () => {
      const reply = await paypal.request(
        'POST',
        `/v2/payments/captures/${ids.capture}/refund`,
        { amount: { currency_code: 'USD', value: '10.00' }, note_to_payer: 'One unit returned' },
        { prefer: 'return=representation', 'paypal-request-id': 'conformance-refund-1' },
      );
      ids.partialRefund = reply.body.id;
      conforms('payments', 'POST', REFUND, reply, 201);
    });

    it('refund replayed with the same PayPal-Request-Id → the same refund', async () => {
      const reply = await paypal.request(
        'POST',
        `/v2/payments/captures/${ids.capture}/refund`,
        { amount: { currency_code: 'USD', value: '10.00' }, note_to_payer: 'One unit returned' },
        { prefer: 'return=representation', 'paypal-request-id': 'conformance-refund-1' },
      );
      conforms('payments', 'POST', REFUND, reply, 201);
      expect(reply.body.id).toBe(ids.partialRefund);
    });

    it('get a refund → 200', async () => {
      const reply = await paypal.request('GET', `/v2/payments/refunds/${ids.partialRefund}`);
      conforms('payments', 'GET', GET_REFUND, reply, 200);
    });

    it('get a partially refunded capture → 200', async () => {
      const reply = await paypal.request('GET', `/v2/payments/captures/${ids.capture}`);
      conforms('payments', 'GET', GET_CAPTURE, reply, 200);
      expect(reply.body.status).toBe('PARTIALLY_REFUNDED');
    });

    it('get an unknown refund → 404', async () => {
      const reply = await paypal.request('GET', '/v2/payments/refunds/0000000000000000X');
      conforms('payments', 'GET', GET_REFUND, reply, 404);
    });

    it('refund more than is left → 422 REFUND_AMOUNT_EXCEEDED', async () => {
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.capture}/refund`, {
        amount: { currency_code: 'USD', value: '20.00' },
      });
      conforms('payments', 'POST', REFUND, reply, 422);
    });

    it('refund in another currency → 422 REFUND_CAPTURE_CURRENCY_MISMATCH', async () => {
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.capture}/refund`, {
        amount: { currency_code: 'EUR', value: '1.00' },
      });
      conforms('payments', 'POST', REFUND, reply, 422);
    });

    it('refund a zero amount → 422 CANNOT_BE_ZERO_OR_NEGATIVE', async () => {
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.capture}/refund`, {
        amount: { currency_code: 'USD', value: '0.00' },
      });
      conforms('payments', 'POST', REFUND, reply, 422);
    });

    it('refund a malformed amount → 400', async () => {
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.capture}/refund`, {
        amount: { currency_code: 'USD', value: 'ten' },
      });
      conforms('payments', 'POST', REFUND, reply, 400);
    });

    it('refund a PENDING capture → 422 PENDING_CAPTURE', async () => {
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.pendingCapture}/refund`);
      conforms('payments', 'POST', REFUND, reply, 422);
    });

    it('refund when the merchant’s balance cannot cover it (PayPal-Mock-Response) → 422 REFUND_FAILED_INSUFFICIENT_FUNDS', async () => {
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.capture}/refund`, undefined, {
        'paypal-mock-response': JSON.stringify({
          mock_application_codes: 'REFUND_FAILED_INSUFFICIENT_FUNDS',
        }),
      });
      conforms('payments', 'POST', REFUND, reply, 422);
      expect(reply.body.details[0].issue).toBe('REFUND_FAILED_INSUFFICIENT_FUNDS');
    });

    it('refund armed to fail by the control endpoint → 422 with the armed issue, once', async () => {
      const armed = await paypal.request('POST', `/simulate/captures/${ids.capture}/refund-failure`, {
        issue: 'MAX_NUMBER_OF_REFUNDS_EXCEEDED',
      });
      expect(armed.status).toBe(200);
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.capture}/refund`, {
        amount: { currency_code: 'USD', value: '1.00' },
      });
      conforms('payments', 'POST', REFUND, reply, 422);
      expect(reply.body.details[0].issue).toBe('MAX_NUMBER_OF_REFUNDS_EXCEEDED');
      const refused = await paypal.request('POST', `/simulate/captures/${ids.capture}/refund-failure`, {
        issue: 'NOT_A_REFUND_ISSUE',
      });
      expect(refused.status).toBe(400);
    });

    it('refund the rest → 201, capture REFUNDED', async () => {
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.capture}/refund`, undefined, {
        prefer: 'return=representation',
      });
      conforms('payments', 'POST', REFUND, reply, 201);
      const capture = await paypal.request('GET', `/v2/payments/captures/${ids.capture}`);
      expect(capture.body.status).toBe('REFUNDED');
    });

    it('refund a fully refunded capture → 422 CAPTURE_FULLY_REFUNDED', async () => {
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.capture}/refund`);
      conforms('payments', 'POST', REFUND, reply, 422);
    });

    it('get the refunded capture and its order → 200', async () => {
      conforms(
        'payments',
        'GET',
        GET_CAPTURE,
        await paypal.request('GET', `/v2/payments/captures/${ids.capture}`),
        200,
      );
      conforms('orders', 'GET', ORDER, await paypal.request('GET', `${ORDERS}/${ids.paid}`), 200);
    });

    it('refund a capture in full with an empty body → 201', async () => {
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.walletCapture}/refund`, {});
      conforms('payments', 'POST', REFUND, reply, 201);
    });

    it('refund a denied capture → 422', async () => {
      await paypal.request('POST', `/simulate/captures/${ids.pendingCapture}/deny`);
      const reply = await paypal.request('POST', `/v2/payments/captures/${ids.pendingCapture}/refund`);
      conforms('payments', 'POST', REFUND, reply, 422);
    });

    it('get a denied capture → 200', async () => {
      const reply = await paypal.request('GET', `/v2/payments/captures/${ids.pendingCapture}`);
      conforms('payments', 'GET', GET_CAPTURE, reply, 200);
      expect(reply.body.status).toBe('DECLINED');
    });
  });

  describe('Webhooks', () => {
    it('a refund made in PayPal’s dashboard is a refund and a PAYMENT.CAPTURE.REFUNDED event', async () => {
      const id = await paypal.createOrder('store-order-dashboard');
      await paypal.request('POST', `${ORDERS}/${id}/confirm-payment-source`, card('4111111111111111'));
      const captured = await paypal.request('POST', `${ORDERS}/${id}/capture`, undefined, {
        prefer: 'return=representation',
      });
      const captureId = captured.body.purchase_units[0].payments.captures[0].id;
      const response = await fetch(`${running.baseUrl}/simulate/captures/${captureId}/refund?wait=true`, {
        method: 'POST',
        headers: { authorization: clientAuthorization(), 'content-type': 'application/json' },
        body: JSON.stringify({ amount: { currency_code: 'USD', value: '9.99' } }),
      });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { refund: { id: string }; delivery: { delivered: boolean } };
      expect(validator.checkSchema('payments', 'refund', body.refund)).toBeNull();
      expect(body.delivery.delivered).toBe(true);
      const event = receiver.received.find(
        (webhook) =>
          webhook.event.event_type === 'PAYMENT.CAPTURE.REFUNDED' &&
          webhook.event.resource.id === body.refund.id,
      );
      expect(event?.event.resource).toMatchObject({ amount: { currency_code: 'USD', value: '9.99' } });
      const capture = await paypal.request('GET', `/v2/payments/captures/${captureId}`);
      expect(capture.body.status).toBe('PARTIALLY_REFUNDED');
    });

    it('every event’s resource is a capture or a refund as the Payments specification defines them', async () => {
      await running.sandbox.idle();
      await receiver.next(ofType('PAYMENT.CAPTURE.DENIED'));
      const types = new Set(receiver.received.map((webhook) => webhook.event.event_type));
      expect(types).toEqual(
        new Set([
          'PAYMENT.CAPTURE.COMPLETED',
          'PAYMENT.CAPTURE.PENDING',
          'PAYMENT.CAPTURE.DENIED',
          'PAYMENT.CAPTURE.REFUNDED',
        ]),
      );
      for (const webhook of receiver.received) {
        const schema = webhook.event.resource_type === 'refund' ? 'refund' : 'capture-2';
        expect({
          type: webhook.event.event_type,
          problem: validator.checkSchema('payments', schema, webhook.event.resource),
        }).toEqual({
          type: webhook.event.event_type,
          problem: null,
        });
      }
    });
  });
});

/** The buyer's choice in PayPal's window, as the emulator's SDK reports it. */
async function buyerApproves(orderId: string, choice: 'approve' | 'decline') {
  const response = await fetch(`${running.baseUrl}/buyer/orders/${orderId}/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ choice }),
  });
  expect(response.status).toBe(200);
}

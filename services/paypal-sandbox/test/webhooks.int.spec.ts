import type { Logger } from '@licensestore/platform/logging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ofType, type ReceivedWebhook, startSandbox, startWebhookReceiver } from './support/sandbox.js';

type Running = Awaited<ReturnType<typeof startSandbox>>;
type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

const WEBHOOK_ID = 'WHTESTLISTENER01';

let running: Running;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  running = await startSandbox({ webhookId: WEBHOOK_ID, webhookUrl: () => receiver.url });
});
afterAll(async () => {
  await running.stop();
  await receiver.stop();
});

async function capture(card: string, customId = `store-${Math.random()}`) {
  const paypal = running.client;
  const id = await paypal.createOrder(customId);
  expect((await paypal.approveWithCard(id, card)).status).toBe(200);
  const reply = await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
  expect(reply.status).toBe(201);
  return { id, customId, captureId: reply.body.purchase_units[0].payments.captures[0].id as string };
}

/** What the app sends to verify-webhook-signature: the PAYPAL-* headers and the event as received. */
const verification = (webhook: ReceivedWebhook, webhookId = WEBHOOK_ID) => ({
  auth_algo: webhook.headers['paypal-auth-algo'],
  cert_url: webhook.headers['paypal-cert-url'],
  transmission_id: webhook.headers['paypal-transmission-id'],
  transmission_sig: webhook.headers['paypal-transmission-sig'],
  transmission_time: webhook.headers['paypal-transmission-time'],
  webhook_id: webhookId,
  webhook_event: JSON.parse(webhook.rawBody),
});

const verify = async (body: unknown) => {
  const reply = await running.client.request('POST', '/v1/notifications/verify-webhook-signature', body);
  return reply;
};

describe('PayPal sandbox webhooks', () => {
  describe('when a capture completes', () => {
    it('POSTs PAYMENT.CAPTURE.COMPLETED with PayPal headers, linked to the order and custom_id', async () => {
      const { id, customId, captureId } = await capture('4111111111111111');
      const webhook = await receiver.next(ofType('PAYMENT.CAPTURE.COMPLETED', id));
      expect(webhook.headers).toMatchObject({
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': expect.stringMatching(/^https:\/\//),
        'paypal-transmission-id': expect.any(String),
        'paypal-transmission-sig': expect.any(String),
        'paypal-transmission-time': expect.any(String),
      });
      expect(webhook.event).toMatchObject({
        id: expect.stringMatching(/^WH-/),
        event_version: '1.0',
        create_time: expect.any(String),
        resource_type: 'capture',
        event_type: 'PAYMENT.CAPTURE.COMPLETED',
        summary: expect.any(String),
        resource: {
          id: captureId,
          status: 'COMPLETED',
          amount: { currency_code: 'USD', value: '29.99' },
          custom_id: customId,
          supplementary_data: { related_ids: { order_id: id } },
        },
      });
    });
  });

  describe('verify-webhook-signature', () => {
    it('answers SUCCESS for an event as the emulator sent it', async () => {
      const { id } = await capture('4111111111111111');
      const webhook = await receiver.next(ofType('PAYMENT.CAPTURE.COMPLETED', id));
      const reply = await verify(verification(webhook));
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ verification_status: 'SUCCESS' });
    });

    it.each([
      [
        'a tampered amount',
        (body: ReturnType<typeof verification>) => {
          body.webhook_event.resource.amount.value = '0.01';
        },
      ],
      [
        'a forged signature',
        (body: ReturnType<typeof verification>) => {
          body.transmission_sig = Buffer.from('forged').toString('base64');
        },
      ],
      [
        'another transmission id',
        (body: ReturnType<typeof verification>) => {
          body.transmission_id = crypto.randomUUID();
        },
      ],
      [
        'another webhook id',
        (body: ReturnType<typeof verification>) => {
          body.webhook_id = 'SOMEOTHERWEBHOOK';
        },
      ],
      [
        'another certificate',
        (body: ReturnType<typeof verification>) => {
          body.cert_url = 'https://attacker.example/cert.pem';
        },
      ],
    ])('answers FAILURE for %s', async (_case, tamper) => {
      const { id } = await capture('4111111111111111');
      const webhook = await receiver.next(ofType('PAYMENT.CAPTURE.COMPLETED', id));
      const body = verification(webhook);
      tamper(body);
      const reply = await verify(body);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ verification_status: 'FAILURE' });
    });

    it('answers 400 VALIDATION_ERROR when fields are missing', async () => {
      const reply = await verify({ webhook_id: WEBHOOK_ID });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        name: 'VALIDATION_ERROR',
        debug_id: expect.any(String),
        details: expect.arrayContaining([expect.objectContaining({ field: 'transmission_sig' })]),
      });
    });

    it('requires a bearer token', async () => {
      const reply = await fetch(`${running.baseUrl}/v1/notifications/verify-webhook-signature`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(reply.status).toBe(401);
      expect(await reply.json()).toMatchObject({ name: 'AUTHENTICATION_FAILURE' });
    });
  });

  describe('when a capture is pending', () => {
    it('sends PENDING, then COMPLETED when the control endpoint completes it', async () => {
      const { id, captureId } = await capture('4000000000000259');
      const pending = await receiver.next(ofType('PAYMENT.CAPTURE.PENDING', id));
      expect(pending.event.resource).toMatchObject({
        id: captureId,
        status: 'PENDING',
        status_details: { reason: 'PENDING_REVIEW' },
      });

      const reply = await running.client.request('POST', `/simulate/orders/${id}/complete`);
      expect(reply.status).toBe(200);
      const completed = await receiver.next(ofType('PAYMENT.CAPTURE.COMPLETED', id));
      expect(completed.event.resource).toMatchObject({ id: captureId, status: 'COMPLETED' });
      expect(completed.event.resource.status_details).toBeUndefined();
      expect((await verify(verification(completed))).body).toEqual({ verification_status: 'SUCCESS' });
      const shown = await running.client.request('GET', `/v2/payments/captures/${captureId}`);
      expect(shown.body.status).toBe('COMPLETED');
    });

    it('sends DENIED and leaves the capture DECLINED when the control endpoint denies it', async () => {
      const { id, captureId } = await capture('4000000000000259');
      const reply = await running.client.request('POST', `/simulate/captures/${captureId}/deny?wait=true`);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        capture: { id: captureId, status: 'DECLINED' },
        event: { event_type: 'PAYMENT.CAPTURE.DENIED' },
        delivery: { delivered: true, attempts: 1, status: 200 },
      });
      const denied = await receiver.next(ofType('PAYMENT.CAPTURE.DENIED', id));
      expect(denied.event.resource).toMatchObject({ id: captureId, status: 'DECLINED' });
    });

    it('refuses to settle a capture that is not pending', async () => {
      const { captureId } = await capture('4111111111111111');
      const reply = await running.client.request('POST', `/simulate/captures/${captureId}/complete`);
      expect(reply.status).toBe(422);
      expect(reply.body).toMatchObject({ details: [{ issue: 'CAPTURE_NOT_PENDING' }] });
    });
  });

  describe('when a capture is refunded', () => {
    it('sends PAYMENT.CAPTURE.REFUNDED about the refund, linked up to the capture', async () => {
      const { customId, captureId } = await capture('4111111111111111');
      const refund = await running.client.request('POST', `/v2/payments/captures/${captureId}/refund`, {
        amount: { currency_code: 'USD', value: '5.00' },
      });
      expect(refund.status).toBe(201);
      const webhook = await receiver.next(
        (candidate) =>
          candidate.event.event_type === 'PAYMENT.CAPTURE.REFUNDED' &&
          candidate.event.resource.id === refund.body.id,
      );
      expect(webhook.event).toMatchObject({
        resource_type: 'refund',
        resource: {
          status: 'COMPLETED',
          amount: { currency_code: 'USD', value: '5.00' },
          custom_id: customId,
          links: expect.arrayContaining([
            { href: `${running.baseUrl}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
          ]),
        },
      });
      expect((await verify(verification(webhook))).body).toEqual({ verification_status: 'SUCCESS' });
    });
  });

  describe('replays', () => {
    it('resends the last webhook of an order with the same event id and a new transmission', async () => {
      const { id } = await capture('4111111111111111');
      const first = await receiver.next(ofType('PAYMENT.CAPTURE.COMPLETED', id));
      const reply = await running.client.request('POST', `/simulate/orders/${id}/resend-webhook`);
      expect(reply.status).toBe(200);
      const again = await receiver.next(
        (candidate) =>
          candidate.event.id === first.event.id &&
          candidate.headers['paypal-transmission-id'] !== first.headers['paypal-transmission-id'],
      );
      expect(again.rawBody).toBe(first.rawBody);
      expect((await verify(verification(again))).body).toEqual({ verification_status: 'SUCCESS' });
    });

    it("resends through PayPal's own webhooks-events resend API", async () => {
      const { id } = await capture('4111111111111111');
      const first = await receiver.next(ofType('PAYMENT.CAPTURE.COMPLETED', id));
      const reply = await running.client.request(
        'POST',
        `/v1/notifications/webhooks-events/${first.event.id}/resend`,
        { webhook_ids: [WEBHOOK_ID] },
      );
      expect(reply.status).toBe(202);
      expect(reply.body.id).toBe(first.event.id);
      await receiver.next(
        (candidate) =>
          candidate.event.id === first.event.id &&
          candidate.headers['paypal-transmission-id'] !== first.headers['paypal-transmission-id'],
      );
    });

    it('sends any capture event type on request, from code or the control endpoint', async () => {
      const { id, captureId } = await capture('4111111111111111');
      const delivery = await running.sandbox.sendWebhook('PAYMENT.CAPTURE.REVERSED', captureId);
      expect(delivery).toMatchObject({ delivered: true, attempts: 1 });
      await receiver.next(ofType('PAYMENT.CAPTURE.REVERSED', id));

      const reply = await running.client.request('POST', `/simulate/orders/${id}/webhook`, {
        event_type: 'PAYMENT.CAPTURE.DECLINED',
      });
      expect(reply.status).toBe(200);
      await receiver.next(ofType('PAYMENT.CAPTURE.DECLINED', id));
    });
  });
});

describe('PayPal sandbox webhook delivery', () => {
  const logged: Array<{ level: string; message: string }> = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (_fields, message) => logged.push({ level: 'warn', message }),
    error: (_fields, message) => logged.push({ level: 'error', message }),
  };

  it('retries a failing listener with backoff until it answers 2xx', async () => {
    const flaky = await startWebhookReceiver({ failFirst: 2 });
    const sandbox = await startSandbox({ webhookUrl: flaky.url, webhookRetryDelaysMs: [5, 10, 20], logger });
    try {
      const paypal = sandbox.client;
      const id = await paypal.createOrder();
      await paypal.approveWithCard(id);
      await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
      await flaky.next(ofType('PAYMENT.CAPTURE.COMPLETED', id));
      await sandbox.sandbox.idle();
      expect(flaky.attempts()).toBe(3);
      expect(sandbox.sandbox.webhookDeliveries[0]).toMatchObject({
        delivered: true,
        attempts: 3,
        lastStatus: 200,
      });
    } finally {
      await sandbox.stop();
      await flaky.stop();
    }
  });

  it('gives up after the last retry and logs it', async () => {
    const down = await startWebhookReceiver({ failFirst: 100 });
    const sandbox = await startSandbox({ webhookUrl: down.url, webhookRetryDelaysMs: [5, 5], logger });
    try {
      const paypal = sandbox.client;
      const id = await paypal.createOrder();
      await paypal.approveWithCard(id);
      await paypal.request('POST', `/v2/checkout/orders/${id}/capture`);
      await sandbox.sandbox.idle();
      expect(down.attempts()).toBe(3);
      expect(sandbox.sandbox.webhookDeliveries[0]).toMatchObject({
        delivered: false,
        attempts: 3,
        lastStatus: 500,
      });
      expect(logged).toContainEqual({
        level: 'error',
        message: 'paypal sandbox: webhook not delivered, giving up',
      });
    } finally {
      await sandbox.stop();
      await down.stop();
    }
  });
});

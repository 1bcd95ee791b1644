import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPaypalClient, PayPalError } from '../src/payments/index.js';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: Seen, res: ServerResponse) => void;

/** A stand-in for PayPal that answers whatever each test scripts, and remembers every request. */
function fakePaypal() {
  const seen: Seen[] = [];
  let handler: Handler = (_req, res) => res.writeHead(500).end();
  let tokens = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      if (request.path === '/v1/oauth2/token') {
        tokens++;
        seen.push(request);
        json(res, 200, { access_token: `token-${tokens}`, token_type: 'Bearer', expires_in: 32400 });
        return;
      }
      seen.push(request);
      handler(request, res);
    });
  });
  return {
    seen,
    server,
    tokenCount: () => tokens,
    answer: (next: Handler) => {
      handler = next;
    },
    reset: () => {
      seen.length = 0;
    },
  };
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const order = (id: string, status = 'CREATED') => ({ id, status, links: [] });

describe('PayPal client', () => {
  const paypal = fakePaypal();
  let baseUrl: string;
  const client = (options: { timeoutMs?: number; retries?: number } = {}) =>
    createPaypalClient({ baseUrl, clientId: 'id', clientSecret: 'secret', retryDelayMs: 1, ...options });

  beforeAll(async () => {
    await new Promise<void>((resolve) => paypal.server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(paypal.server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    paypal.server.closeAllConnections();
    await new Promise((resolve) => paypal.server.close(resolve));
  });
  afterEach(() => paypal.reset());

  describe('authentication', () => {
    it('asks for a token with the client credentials once, and shares it between concurrent calls', async () => {
      paypal.answer((req, res) => json(res, 200, order(req.path.split('/')[4] ?? 'X')));
      const paypalClient = client();
      const before = paypal.tokenCount();
      await Promise.all(['A1', 'A2', 'A3', 'A4'].map((id) => paypalClient.getOrder(id)));
      await paypalClient.getOrder('A5');
      expect(paypal.tokenCount() - before).toBe(1);
      const tokenRequest = paypal.seen.find((req) => req.path === '/v1/oauth2/token');
      expect(tokenRequest?.headers.authorization).toBe(
        `Basic ${Buffer.from('id:secret').toString('base64')}`,
      );
      expect(tokenRequest?.body).toBe('grant_type=client_credentials');
      expect(tokenRequest?.headers['content-type']).toBe('application/x-www-form-urlencoded');
      const calls = paypal.seen.filter((req) => req.path.startsWith('/v2/'));
      expect(new Set(calls.map((req) => req.headers.authorization)).size).toBe(1);
    });

    it('fetches a new token when PayPal refuses the cached one', async () => {
      let refused = false;
      paypal.answer((_req, res) => {
        if (!refused) {
          refused = true;
          json(res, 401, { name: 'AUTHENTICATION_FAILURE', message: 'expired' });
          return;
        }
        json(res, 200, order('B1'));
      });
      const paypalClient = client();
      const before = paypal.tokenCount();
      expect((await paypalClient.getOrder('B1')).id).toBe('B1');
      expect(paypal.tokenCount() - before).toBe(2);
    });
  });

  describe('retries', () => {
    it('retries a timeout with the same PayPal-Request-Id, and takes the answer that comes', async () => {
      let attempts = 0;
      paypal.answer((_req, res) => {
        attempts++;
        if (attempts === 1) return; // never answers: the client times out
        json(res, 201, order('C1', 'COMPLETED'));
      });
      const captured = await client({ timeoutMs: 200 }).capture('C1', 'capture-C1');
      expect(captured.status).toBe('COMPLETED');
      const captures = paypal.seen.filter((req) => req.path === '/v2/checkout/orders/C1/capture');
      expect(captures).toHaveLength(2);
      expect(captures.map((req) => req.headers['paypal-request-id'])).toEqual(['capture-C1', 'capture-C1']);
      expect(captures[0]?.headers.prefer).toBe('return=representation');
    });

    it('retries 5xx answers, then gives up with the last failure', async () => {
      paypal.answer((_req, res) => json(res, 503, { name: 'SERVICE_UNAVAILABLE', message: 'try later' }));
      const failure = await client({ retries: 2 })
        .createOrder({ intent: 'CAPTURE', purchase_units: [] })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PayPalError);
      expect(failure).toMatchObject({ status: 503, name: 'SERVICE_UNAVAILABLE', unavailable: true });
      const creates = paypal.seen.filter((req) => req.path === '/v2/checkout/orders');
      expect(creates).toHaveLength(3);
      expect(new Set(creates.map((req) => req.headers['paypal-request-id'])).size).toBe(1);
    });

    it('reports a timeout after the last attempt as unavailable', async () => {
      paypal.answer(() => {});
      const failure = await client({ timeoutMs: 50, retries: 1 })
        .getOrder('D1')
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ status: 0, name: 'TIMEOUT', unavailable: true });
      expect(paypal.seen.filter((req) => req.path === '/v2/checkout/orders/D1')).toHaveLength(2);
    });

    it('retries when the connection fails', async () => {
      let attempts = 0;
      paypal.answer((_req, res) => {
        attempts++;
        if (attempts === 1) {
          res.socket?.destroy();
          return;
        }
        json(res, 200, order('E1'));
      });
      expect((await client().getOrder('E1')).id).toBe('E1');
      expect(attempts).toBe(2);
    });

    it('never retries a 4xx, and carries PayPal issue, description and debug id', async () => {
      paypal.answer((_req, res) =>
        json(res, 422, {
          name: 'UNPROCESSABLE_ENTITY',
          message: 'The requested action could not be performed.',
          debug_id: 'dbg123',
          details: [{ issue: 'INSTRUMENT_DECLINED', description: 'The instrument presented was declined.' }],
        }),
      );
      const failure = await client()
        .capture('F1', 'capture-F1')
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({
        status: 422,
        name: 'UNPROCESSABLE_ENTITY',
        issue: 'INSTRUMENT_DECLINED',
        debugId: 'dbg123',
        description: 'The instrument presented was declined.',
        unavailable: false,
      });
      expect(paypal.seen.filter((req) => req.path === '/v2/checkout/orders/F1/capture')).toHaveLength(1);
    });
  });

  describe('answers', () => {
    it('refuses an answer without the fields the store relies on', async () => {
      paypal.answer((_req, res) => json(res, 200, { status: 'CREATED' }));
      await expect(client().getOrder('G1')).rejects.toMatchObject({ name: 'INVALID_RESPONSE' });
    });

    it('keeps fields it does not know', async () => {
      paypal.answer((_req, res) =>
        json(res, 200, { ...order('H1'), processing_instruction: 'NO_INSTRUCTION' }),
      );
      expect(await client().getOrder('H1')).toMatchObject({
        id: 'H1',
        processing_instruction: 'NO_INSTRUCTION',
      });
    });

    it('sends the webhook event to verification exactly as it was received', async () => {
      paypal.answer((_req, res) => json(res, 200, { verification_status: 'SUCCESS' }));
      const rawEvent =
        '{"id":"WH-1",  "event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"amount":{"value":"10.50"}}}';
      const status = await client().verifyWebhookSignature({
        authAlgo: 'SHA256withRSA',
        certUrl: 'https://example.test/cert',
        transmissionId: 't-1',
        transmissionSig: 'sig',
        transmissionTime: '2026-01-01T00:00:00Z',
        webhookId: 'WEBHOOK',
        rawEvent,
      });
      expect(status).toBe('SUCCESS');
      const verify = paypal.seen.find((req) => req.path === '/v1/notifications/verify-webhook-signature');
      expect(verify?.body.endsWith(`"webhook_event":${rawEvent}}`)).toBe(true);
      expect(JSON.parse(verify?.body ?? '')).toMatchObject({ webhook_id: 'WEBHOOK', transmission_id: 't-1' });
    });
  });
});

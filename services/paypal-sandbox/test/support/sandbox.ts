import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  clientAuthorization,
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  type RunningPaypalSandbox,
  type StartPaypalSandboxOptions,
  startPaypalSandbox,
} from '../../src/index.js';

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** An access token of the emulator at `baseUrl` (…/paypal-sandbox) for its default credentials, as PayPal's OAuth gives one. */
export async function emulatorAccessToken(baseUrl: string): Promise<string> {
  const reply = await new PaypalClient(baseUrl).authenticate();
  if (reply.status !== 200) throw new Error(`the emulator refused its own credentials: ${reply.status}`);
  return reply.body.access_token as string;
}

/** A REST client for the emulator, holding one access token. */
export class PaypalClient {
  private token: string | null = null;

  constructor(readonly baseUrl: string) {}

  async authenticate(clientId = DEFAULT_CLIENT_ID, secret = DEFAULT_CLIENT_SECRET): Promise<Reply> {
    const response = await fetch(`${this.baseUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: clientAuthorization(clientId, secret),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const body = (await response.json()) as Record<string, unknown>;
    if (response.ok) this.token = body.access_token as string;
    return { status: response.status, body, headers: response.headers };
  }

  // biome-ignore lint/suspicious/noExplicitAny: test replies are inspected freely
  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    if (!this.token) await this.authenticate();
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  }

  /** Creates an order for `value` USD (two items) and returns its id. */
  async createOrder(customId = 'store-order-1', headers: Record<string, string> = {}): Promise<string> {
    const reply = await this.request('POST', '/v2/checkout/orders', orderRequest(customId), headers);
    if (reply.status !== 201) throw new Error(`create failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.id;
  }

  async approveWithCard(orderId: string, number = '4111111111111111'): Promise<Reply> {
    return this.request('POST', `/v2/checkout/orders/${orderId}/confirm-payment-source`, {
      payment_source: {
        card: { name: 'Jane Buyer', number, expiry: futureExpiry(), security_code: cvvFor(number) },
      },
    });
  }
}

export const cvvFor = (number: string) => (/^3[47]/.test(number) ? '1234' : '123');

export const futureExpiry = () => `${new Date().getUTCFullYear() + 2}-07`;

/** The store's shape: 2 × 10.00 + 1 × 9.99 = 29.99, tax 0. */
export const orderRequest = (customId = 'store-order-1') => ({
  intent: 'CAPTURE',
  purchase_units: [
    {
      custom_id: customId,
      amount: {
        currency_code: 'USD',
        value: '29.99',
        breakdown: { item_total: { currency_code: 'USD', value: '29.99' } },
      },
      items: [
        {
          name: 'Windows 11 Pro',
          sku: 'win11pro',
          quantity: '2',
          unit_amount: { currency_code: 'USD', value: '10.00' },
          category: 'DIGITAL_GOODS',
        },
        {
          name: 'Norton 360',
          sku: 'norton360',
          quantity: '1',
          unit_amount: { currency_code: 'USD', value: '9.99' },
          category: 'DIGITAL_GOODS',
        },
      ],
    },
  ],
});

export async function startSandbox(options: StartPaypalSandboxOptions = {}) {
  const running: RunningPaypalSandbox = await startPaypalSandbox({ host: '127.0.0.1', port: 0, ...options });
  return { ...running, client: new PaypalClient(running.baseUrl) };
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  // biome-ignore lint/suspicious/noExplicitAny: inspected freely by tests
  event: any;
}

/**
 * An HTTP listener standing in for the app's /paypal/webhook. `failFirst` answers 500 to that many
 * requests before accepting. `next(predicate)` resolves when a matching webhook has arrived.
 */
export async function startWebhookReceiver(options: { failFirst?: number } = {}) {
  const received: ReceivedWebhook[] = [];
  const waiters: Array<{
    predicate: (webhook: ReceivedWebhook) => boolean;
    resolve: (w: ReceivedWebhook) => void;
  }> = [];
  let failuresLeft = options.failFirst ?? 0;
  let attempts = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      attempts++;
      if (failuresLeft > 0) {
        failuresLeft--;
        res.writeHead(500).end();
        return;
      }
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const webhook = { headers: req.headers, rawBody, event: JSON.parse(rawBody) };
      received.push(webhook);
      res.writeHead(200).end();
      for (const waiter of waiters.splice(0)) {
        if (waiter.predicate(webhook)) waiter.resolve(webhook);
        else waiters.push(waiter);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/paypal/webhook`,
    received,
    attempts: () => attempts,
    next(predicate: (webhook: ReceivedWebhook) => boolean): Promise<ReceivedWebhook> {
      const already = received.find(predicate);
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const ofType = (eventType: string, orderId?: string) => (webhook: ReceivedWebhook) =>
  webhook.event.event_type === eventType &&
  (orderId === undefined || webhook.event.resource?.supplementary_data?.related_ids?.order_id === orderId);

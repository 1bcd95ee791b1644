import { randomUUID } from 'node:crypto';
import { backoffDelay } from '@licensestore/domain/backoff';
import type { Logger } from '@licensestore/platform/logging';
import type { z } from 'zod';
import {
  type CreateOrderRequest,
  captureDetailsSchema,
  errorBodySchema,
  orderSchema,
  type PaymentSource,
  type PaypalCaptureDetails,
  type PaypalErrorDetail,
  type PaypalOrder,
  type PaypalRefund,
  type RefundRequest,
  refundSchema,
  tokenSchema,
  type WebhookVerification,
  webhookVerificationSchema,
} from './types.js';

/** PayPal's REST hosts; the emulator (or any other stand-in) is given as a base URL instead. */
export const PAYPAL_HOSTS = {
  sandbox: 'https://api-m.sandbox.paypal.com',
  live: 'https://api-m.paypal.com',
} as const;

/**
 * A PayPal call that failed. `status` is the HTTP status, or 0 when no answer came (network error, timeout);
 * `name`, `issue` (the first detail's), `debugId` and `details` come from PayPal's error body.
 */
export class PayPalError extends Error {
  readonly issue: string | undefined;
  constructor(
    readonly status: number,
    override readonly name: string,
    message: string,
    readonly debugId?: string,
    readonly details: PaypalErrorDetail[] = [],
  ) {
    super(message);
    this.issue = details[0]?.issue;
  }

  /** The first detail's description: what PayPal says went wrong, fit to show the buyer. */
  get description(): string {
    return this.details[0]?.description ?? this.message;
  }

  /** PayPal did not answer, or failed on its side: the same call may succeed later. */
  get unavailable(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

export interface PaypalClientOptions {
  /**
   * `PAYPAL_HOSTS.sandbox`, `.live`, or an emulator such as `http://127.0.0.1:5000/paypal-sandbox`. A function is
   * read at every call: an app that calls the emulator on its own origin learns its port only once it listens.
   */
  baseUrl: string | (() => string);
  clientId: string;
  clientSecret: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** Further attempts after a network error, a timeout or a 5xx, all with the same PayPal-Request-Id. */
  retries?: number;
  /** First back-off; doubled per retry, with jitter. */
  retryDelayMs?: number;
  fetch?: typeof fetch;
  logger?: Logger;
}

export interface PaypalClient {
  /** A fresh PayPal-Request-Id per call unless one is given; retries of the call reuse it. */
  createOrder(request: CreateOrderRequest, options?: { requestId?: string }): Promise<PaypalOrder>;
  getOrder(orderId: string): Promise<PaypalOrder>;
  /** `requestId` must be derived from the order: a replay answers the first capture instead of capturing again. */
  capture(orderId: string, requestId: string): Promise<PaypalOrder>;
  /** A capture with `supplementary_data.related_ids.order_id`: how a refund, which links only its capture, finds its order. */
  getCapture(captureId: string): Promise<PaypalCaptureDetails>;
  confirmPaymentSource(
    orderId: string,
    paymentSource: PaymentSource,
    requestId?: string,
  ): Promise<PaypalOrder>;
  verifyWebhookSignature(input: WebhookVerification): Promise<'SUCCESS' | 'FAILURE'>;
  refund(captureId: string, request: RefundRequest, requestId: string): Promise<PaypalRefund>;
}

/** Refresh this long before PayPal says the token expires, so no call goes out with a token about to die. */
const TOKEN_MARGIN_MS = 60_000;

interface CachedToken {
  value: string;
  expiresAt: number;
}

interface Call<S extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  schema: S;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Sends Basic client credentials instead of the bearer token (the token call itself). */
  basicAuth?: boolean;
}

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

const segment = (id: string) => encodeURIComponent(id);

export function createPaypalClient(options: PaypalClientOptions): PaypalClient {
  const baseUrl = () =>
    (typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 100;
  const doFetch = options.fetch ?? fetch;
  const basic = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;

  let token: CachedToken | null = null;
  let pendingToken: Promise<CachedToken> | null = null;

  const backoff = (attempt: number) =>
    new Promise((resolve) =>
      setTimeout(resolve, backoffDelay(attempt + 1, { firstMs: retryDelayMs, jitter: 'half' })),
    );

  /** One HTTP exchange, retried on no answer, timeouts and 5xx; the headers (and request id) never change. */
  async function send<S extends z.ZodType>(call: Call<S>, authorization: string): Promise<z.output<S>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization,
      ...(call.body !== undefined ? { 'content-type': call.contentType ?? 'application/json' } : {}),
      ...call.headers,
    };
    for (let attempt = 0; ; attempt++) {
      let failure: PayPalError;
      try {
        const response = await doFetch(`${baseUrl()}${call.path}`, {
          method: call.method,
          headers,
          body: call.body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await response.text();
        if (response.ok) return parseBody(call, response.status, text);
        failure = errorFrom(response.status, text);
      } catch (error) {
        if (error instanceof PayPalError) throw error;
        failure = isTimeout(error)
          ? new PayPalError(
              0,
              'TIMEOUT',
              `PayPal did not answer ${call.method} ${call.path} within ${timeoutMs} ms`,
            )
          : new PayPalError(0, 'NETWORK_ERROR', `PayPal could not be reached: ${(error as Error).message}`);
      }
      if (!failure.unavailable || attempt >= retries) throw failure;
      options.logger?.warn(
        { path: call.path, status: failure.status, error: failure.name, attempt: attempt + 1 },
        'PayPal call failed; retrying with the same request id',
      );
      await backoff(attempt);
    }
  }

  function parseBody<S extends z.ZodType>(call: Call<S>, status: number, text: string): z.output<S> {
    let json: unknown;
    try {
      json = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new PayPalError(
        status,
        'INVALID_RESPONSE',
        `PayPal answered ${call.path} with a body that is not JSON`,
      );
    }
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
      throw new PayPalError(
        status,
        'INVALID_RESPONSE',
        `PayPal's answer to ${call.method} ${call.path} has an unexpected shape: ${parsed.error.message}`,
      );
    }
    return parsed.data;
  }

  function errorFrom(status: number, text: string): PayPalError {
    let body: z.output<typeof errorBodySchema> = {};
    try {
      const parsed = errorBodySchema.safeParse(JSON.parse(text));
      if (parsed.success) body = parsed.data;
    } catch {
      // Not JSON (a proxy's HTML page, say): the status says enough.
    }
    return new PayPalError(
      status,
      body.name ?? body.error ?? `HTTP_${status}`,
      body.message ?? body.error_description ?? `PayPal answered ${status}`,
      body.debug_id,
      body.details ?? [],
    );
  }

  async function fetchToken(): Promise<CachedToken> {
    const started = Date.now();
    const answer = await send(
      {
        method: 'POST',
        path: '/v1/oauth2/token',
        schema: tokenSchema,
        body: 'grant_type=client_credentials',
        contentType: 'application/x-www-form-urlencoded',
      },
      basic,
    );
    const lifetimeMs = answer.expires_in * 1000;
    const margin = Math.min(TOKEN_MARGIN_MS, lifetimeMs / 2);
    return { value: answer.access_token, expiresAt: started + lifetimeMs - margin };
  }

  /** The cached token, or one fetch shared by every caller that needs a new one. */
  async function accessToken(): Promise<string> {
    if (token && Date.now() < token.expiresAt) return token.value;
    pendingToken ??= fetchToken().finally(() => {
      pendingToken = null;
    });
    const fresh = await pendingToken;
    token = fresh;
    return fresh.value;
  }

  async function call<S extends z.ZodType>(request: Call<S>): Promise<z.output<S>> {
    const bearer = await accessToken();
    try {
      return await send(request, `Bearer ${bearer}`);
    } catch (error) {
      // A token PayPal revoked before its time: drop it and try once more with a new one.
      if (!(error instanceof PayPalError) || error.status !== 401) throw error;
      if (token?.value === bearer) token = null;
      return send(request, `Bearer ${await accessToken()}`);
    }
  }

  const post = <S extends z.ZodType>(
    path: string,
    schema: S,
    body: unknown,
    headers: Record<string, string>,
  ) => call({ method: 'POST', path, schema, body: JSON.stringify(body), headers });

  return {
    createOrder: (request, callOptions) =>
      post('/v2/checkout/orders', orderSchema, request, {
        'paypal-request-id': callOptions?.requestId ?? randomUUID(),
        prefer: 'return=representation',
      }),
    getOrder: (orderId) =>
      call({ method: 'GET', path: `/v2/checkout/orders/${segment(orderId)}`, schema: orderSchema }),
    capture: (orderId, requestId) =>
      post(
        `/v2/checkout/orders/${segment(orderId)}/capture`,
        orderSchema,
        {},
        {
          'paypal-request-id': requestId,
          prefer: 'return=representation',
        },
      ),
    getCapture: (captureId) =>
      call({
        method: 'GET',
        path: `/v2/payments/captures/${segment(captureId)}`,
        schema: captureDetailsSchema,
      }),
    confirmPaymentSource: (orderId, paymentSource, requestId) =>
      post(
        `/v2/checkout/orders/${segment(orderId)}/confirm-payment-source`,
        orderSchema,
        { payment_source: paymentSource },
        { 'paypal-request-id': requestId ?? randomUUID(), prefer: 'return=representation' },
      ),
    verifyWebhookSignature: async (input) => {
      // Embedded verbatim: a re-serialised event would not match the signature PayPal computed over the body.
      JSON.parse(input.rawEvent);
      const fields = JSON.stringify({
        auth_algo: input.authAlgo,
        cert_url: input.certUrl,
        transmission_id: input.transmissionId,
        transmission_sig: input.transmissionSig,
        transmission_time: input.transmissionTime,
        webhook_id: input.webhookId,
      });
      const answer = await call({
        method: 'POST',
        path: '/v1/notifications/verify-webhook-signature',
        schema: webhookVerificationSchema,
        body: `${fields.slice(0, -1)},"webhook_event":${input.rawEvent}}`,
      });
      return answer.verification_status;
    },
    refund: (captureId, request, requestId) =>
      post(`/v2/payments/captures/${segment(captureId)}/refund`, refundSchema, request, {
        'paypal-request-id': requestId,
        prefer: 'return=representation',
      }),
  };
}

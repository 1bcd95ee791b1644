import { createHmac, timingSafeEqual } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Logger } from '@licensestore/platform/logging';
import { transmissionId as newTransmissionId, timestamp, webhookEventId } from './ids.js';
import type { Money } from './money.js';

export type WebhookEventType =
  | 'PAYMENT.CAPTURE.COMPLETED'
  | 'PAYMENT.CAPTURE.PENDING'
  | 'PAYMENT.CAPTURE.DENIED'
  | 'PAYMENT.CAPTURE.DECLINED'
  | 'PAYMENT.CAPTURE.REFUNDED'
  | 'PAYMENT.CAPTURE.REVERSED';

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  'PAYMENT.CAPTURE.COMPLETED',
  'PAYMENT.CAPTURE.PENDING',
  'PAYMENT.CAPTURE.DENIED',
  'PAYMENT.CAPTURE.DECLINED',
  'PAYMENT.CAPTURE.REFUNDED',
  'PAYMENT.CAPTURE.REVERSED',
];

/** The envelope PayPal POSTs to a webhook listener. */
export interface WebhookEvent {
  id: string;
  event_version: '1.0';
  create_time: string;
  resource_type: 'capture' | 'refund';
  resource_version: '2.0';
  event_type: WebhookEventType;
  summary: string;
  resource: Record<string, unknown> & { id: string; amount: Money };
  links: Array<{ href: string; rel: string; method: string }>;
}

export interface WebhookTransmission {
  transmissionId: string;
  transmissionTime: string;
  signature: string;
}

/** One delivery of one event (a resend is a new delivery of the same event). */
export interface WebhookDelivery {
  event: WebhookEvent;
  transmission: WebhookTransmission;
  url: string | null;
  attempts: number;
  /** The listener answered 2xx. */
  delivered: boolean;
  lastStatus?: number;
  lastError?: string;
}

export const AUTH_ALGO = 'SHA256withRSA';
/** Where PayPal's certificate would be; the emulator only checks that the request names it. */
export const CERT_URL =
  'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-sandboxemu';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (IEEE), as PayPal uses in the signed string. */
export function crc32(data: string | Buffer): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * PayPal signs `<transmission id>|<transmission time>|<webhook id>|<crc32 of the raw body>` with its
 * certificate's key; the emulator uses an HMAC-SHA256 with a secret of its own instead, so only the
 * emulator itself (the verify endpoint) can tell a genuine event from a tampered one.
 */
export function signTransmission(
  secret: Buffer,
  input: { transmissionId: string; transmissionTime: string; webhookId: string; body: string },
): string {
  const message = `${input.transmissionId}|${input.transmissionTime}|${input.webhookId}|${crc32(input.body)}`;
  return createHmac('sha256', secret).update(message).digest('base64');
}

export interface VerifyInput {
  auth_algo: string;
  cert_url: string;
  transmission_id: string;
  transmission_sig: string;
  transmission_time: string;
  webhook_id: string;
  webhook_event: Record<string, unknown>;
}

/**
 * SUCCESS only for an event this emulator sent to `webhookId`, unchanged. The event arrives parsed (as in
 * PayPal's API) and is re-serialised, which reproduces the sent bytes for any JSON.parse'd body.
 */
export function verifyTransmission(secret: Buffer, webhookId: string, input: VerifyInput): boolean {
  if (input.webhook_id !== webhookId || input.auth_algo !== AUTH_ALGO || input.cert_url !== CERT_URL)
    return false;
  const expected = Buffer.from(
    signTransmission(secret, {
      transmissionId: input.transmission_id,
      transmissionTime: input.transmission_time,
      webhookId,
      body: JSON.stringify(input.webhook_event),
    }),
  );
  const given = Buffer.from(input.transmission_sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const SUMMARIES: Record<WebhookEventType, (amount: string) => string> = {
  'PAYMENT.CAPTURE.COMPLETED': (amount) => `Payment completed for ${amount}`,
  'PAYMENT.CAPTURE.PENDING': (amount) => `Payment pending for ${amount}`,
  'PAYMENT.CAPTURE.DENIED': (amount) => `Payment denied for ${amount}`,
  'PAYMENT.CAPTURE.DECLINED': (amount) => `Payment declined for ${amount}`,
  'PAYMENT.CAPTURE.REFUNDED': (amount) => `A ${amount} capture payment was refunded`,
  'PAYMENT.CAPTURE.REVERSED': (amount) => `A ${amount} capture payment was reversed`,
};

export function buildEvent(
  eventType: WebhookEventType,
  resource: WebhookEvent['resource'],
  baseUrl: string,
  now = new Date(),
): WebhookEvent {
  const id = webhookEventId();
  const amount = `$ ${Number(resource.amount.value)} ${resource.amount.currency_code}`;
  return {
    id,
    event_version: '1.0',
    create_time: timestamp(now),
    resource_type: eventType === 'PAYMENT.CAPTURE.REFUNDED' ? 'refund' : 'capture',
    resource_version: '2.0',
    event_type: eventType,
    summary: SUMMARIES[eventType](amount),
    resource,
    links: [
      { href: `${baseUrl}/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' },
      { href: `${baseUrl}/v1/notifications/webhooks-events/${id}/resend`, rel: 'resend', method: 'POST' },
    ],
  };
}

export interface WebhookSenderOptions {
  secret: Buffer;
  webhookId: string;
  /** Read at every delivery, so a listener can start after the emulator. */
  url: () => string | undefined;
  /** Waits before each retry; the number of entries is the number of retries. */
  retryDelaysMs: readonly number[];
  /** Per attempt. */
  timeoutMs: number;
  logger: Logger;
}

/** Signs and POSTs events, retrying with backoff like PayPal does, and remembers every delivery. */
export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private readonly inFlight = new Set<Promise<WebhookDelivery>>();
  private readonly closing = new AbortController();

  constructor(private readonly options: WebhookSenderOptions) {
    // Every delivery in flight waits on this signal (its POST and its back-off): many at once is the normal case.
    setMaxListeners(0, this.closing.signal);
  }

  send(event: WebhookEvent): Promise<WebhookDelivery> {
    const transmissionId = newTransmissionId();
    const transmissionTime = new Date().toISOString();
    const body = JSON.stringify(event);
    const delivery: WebhookDelivery = {
      event,
      transmission: {
        transmissionId,
        transmissionTime,
        signature: signTransmission(this.options.secret, {
          transmissionId,
          transmissionTime,
          webhookId: this.options.webhookId,
          body,
        }),
      },
      url: this.options.url() || null,
      attempts: 0,
      delivered: false,
    };
    this.deliveries.push(delivery);
    const running = this.deliver(delivery, body).finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
    return running;
  }

  /** Resolves once every delivery under way, retries included, has succeeded or given up. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Stops retrying and aborts requests in flight. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.idle();
  }

  private async deliver(delivery: WebhookDelivery, body: string): Promise<WebhookDelivery> {
    const { logger, retryDelaysMs } = this.options;
    const { url } = delivery;
    const log = { eventId: delivery.event.id, eventType: delivery.event.event_type, url };
    if (!url) {
      logger.debug(log, 'paypal sandbox: no webhook url, event not sent');
      return delivery;
    }
    for (let attempt = 0; attempt <= retryDelaysMs.length; attempt++) {
      if (attempt > 0 && !(await this.wait(retryDelaysMs[attempt - 1] ?? 0))) break;
      delivery.attempts++;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'PayPal/AUHD-214.0-58844935',
            'paypal-auth-algo': AUTH_ALGO,
            'paypal-cert-url': CERT_URL,
            'paypal-transmission-id': delivery.transmission.transmissionId,
            'paypal-transmission-sig': delivery.transmission.signature,
            'paypal-transmission-time': delivery.transmission.transmissionTime,
          },
          body,
          signal: AbortSignal.any([this.closing.signal, AbortSignal.timeout(this.options.timeoutMs)]),
        });
        await response.arrayBuffer().catch(() => undefined);
        delivery.lastStatus = response.status;
        if (response.ok) {
          delivery.delivered = true;
          logger.debug({ ...log, status: response.status }, 'paypal sandbox: webhook delivered');
          return delivery;
        }
        delivery.lastError = `HTTP ${response.status}`;
      } catch (error) {
        delivery.lastError = error instanceof Error ? error.message : String(error);
      }
      if (this.closing.signal.aborted) break;
      logger.warn(
        { ...log, attempt: delivery.attempts, error: delivery.lastError },
        'paypal sandbox: webhook delivery failed',
      );
    }
    logger.error(
      { ...log, attempts: delivery.attempts, error: delivery.lastError },
      'paypal sandbox: webhook not delivered, giving up',
    );
    return delivery;
  }

  /** False when the sender closed while waiting. */
  private wait(ms: number): Promise<boolean> {
    const signal = this.closing.signal;
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

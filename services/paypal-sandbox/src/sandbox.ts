import { randomBytes } from 'node:crypto';
import { type Logger, silentLogger } from '@licensestore/platform/logging';
import type { Router } from 'express';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, DEFAULT_WEBHOOK_ID } from './credentials.js';
import type { Emulator } from './emulator.js';
import { unprocessableIssue } from './errors.js';
import {
  type CaptureRef,
  emptyState,
  findCapture,
  type RefundRef,
  renderCapture,
  renderRefund,
  type SandboxState,
  settlePendingCapture,
} from './orders.js';
import { sandboxRouter } from './routes.js';
import {
  buildEvent,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventType,
  WebhookSender,
} from './webhooks.js';

export interface PaypalSandboxOptions {
  /** Accepted by POST /v1/oauth2/token; default DEFAULT_CLIENT_ID. */
  clientId?: string;
  /** Default DEFAULT_CLIENT_SECRET. */
  clientSecret?: string;
  /** The id events are signed for and verify-webhook-signature expects; default DEFAULT_WEBHOOK_ID. */
  webhookId?: string;
  /** The app's listener (e.g. `${origin}/paypal/webhook`); a function is read at every delivery. Unset: no delivery. */
  webhookUrl?: string | (() => string | undefined);
  /** Waits before each retry of a failed delivery; default [500, 2000, 8000] (four attempts). */
  webhookRetryDelaysMs?: readonly number[];
  /** Per delivery attempt; default 10 s. */
  webhookTimeoutMs?: number;
  /** How long a capture spends "at the processor" before it commits; default 10 ms. */
  captureLatencyMs?: number;
  logger?: Logger;
}

export interface PaypalSandbox {
  /** Mount at `/paypal-sandbox` (any path works: links and the SDK follow the mount point). */
  router: Router;
  /** Orders, captures and refunds, in memory; for assertions, not for mutation. */
  state: SandboxState;
  /** The credentials its OAuth endpoint and control routes accept. */
  clientId: string;
  clientSecret: string;
  /** The webhook id events are signed for. */
  webhookId: string;
  /** Every webhook delivery so far, oldest first. */
  webhookDeliveries: readonly WebhookDelivery[];
  /**
   * Builds, signs and delivers an event about a capture — for PAYMENT.CAPTURE.REFUNDED about a refund
   * (a refund id, or a capture id for its latest refund). Resolves when delivered or given up.
   */
  sendWebhook(eventType: WebhookEventType, resourceId: string): Promise<WebhookDelivery>;
  /** Delivers an event already sent again: same event id, new transmission (PayPal's resend). */
  resendWebhook(eventId: string): Promise<WebhookDelivery>;
  /** Settles a PENDING capture and sends PAYMENT.CAPTURE.COMPLETED (or DENIED). */
  settleCapture(captureId: string, result: 'complete' | 'deny'): Promise<WebhookDelivery>;
  /** Resolves when no webhook delivery (retries included) is under way. */
  idle(): Promise<void>;
  /** Stops webhook retries and aborts deliveries in flight. */
  close(): Promise<void>;
}

/** Creates an in-memory PayPal (REST, webhooks and browser SDK) for development and tests. */
export function createPaypalSandbox(options: PaypalSandboxOptions = {}): PaypalSandbox {
  const logger = options.logger ?? silentLogger;
  const webhookId = options.webhookId ?? DEFAULT_WEBHOOK_ID;
  const webhookSecret = randomBytes(32);
  const webhookUrl = options.webhookUrl;
  const sender = new WebhookSender({
    secret: webhookSecret,
    webhookId,
    url: typeof webhookUrl === 'function' ? webhookUrl : () => webhookUrl,
    retryDelaysMs: options.webhookRetryDelaysMs ?? [500, 2000, 8000],
    timeoutMs: options.webhookTimeoutMs ?? 10_000,
    logger,
  });
  const state = emptyState();
  const events = new Map<string, WebhookEvent>();
  const lastEventByOrder = new Map<string, WebhookEvent>();
  const locks = new Map<string, Promise<unknown>>();

  const withLock = <T>(key: string, work: () => Promise<T> | T): Promise<T> => {
    const previous = locks.get(key) ?? Promise.resolve();
    const run = previous.then(work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    locks.set(key, tail);
    void tail.then(() => {
      if (locks.get(key) === tail) locks.delete(key);
    });
    return run;
  };

  const emit = (eventType: WebhookEventType, ref: CaptureRef | RefundRef): Promise<WebhookDelivery> => {
    let resource: WebhookEvent['resource'];
    if (eventType === 'PAYMENT.CAPTURE.REFUNDED') {
      const refund =
        'refund' in ref
          ? ref.refund
          : (ref.unit.payments?.refunds ?? []).findLast(
              (candidate) => state.refunds.get(candidate.id)?.capture === ref.capture,
            );
      if (!refund) {
        return Promise.reject(
          unprocessableIssue('CAPTURE_NOT_REFUNDED', `Capture ${ref.capture.id} has no refund.`, 'payments'),
        );
      }
      resource = renderRefund({ ...ref, refund });
    } else {
      resource = renderCapture(ref);
    }
    const event = buildEvent(eventType, resource, ref.order.baseUrl);
    events.set(event.id, event);
    lastEventByOrder.set(ref.order.id, event);
    return sender.send(event);
  };

  const resend = (eventId: string): Promise<WebhookDelivery> => {
    const event = events.get(eventId);
    if (!event) {
      return Promise.reject(
        unprocessableIssue('INVALID_RESOURCE_ID', `Webhook event ${eventId} does not exist.`, 'webhooks'),
      );
    }
    return sender.send(event);
  };

  /** Settles under the order's lock; the delivery runs on after the lock is released. */
  const settle = (ref: CaptureRef, result: 'complete' | 'deny') =>
    withLock(ref.order.id, () => {
      if (!settlePendingCapture(ref, result === 'complete' ? 'COMPLETED' : 'DECLINED')) {
        throw unprocessableIssue(
          'CAPTURE_NOT_PENDING',
          `Capture ${ref.capture.id} is ${ref.capture.status}; only a PENDING capture can be settled.`,
          'payments',
        );
      }
      return {
        delivery: emit(result === 'complete' ? 'PAYMENT.CAPTURE.COMPLETED' : 'PAYMENT.CAPTURE.DENIED', ref),
      };
    });

  const emulator: Emulator = {
    state,
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
    webhookId,
    webhookSecret,
    captureLatencyMs: options.captureLatencyMs ?? 10,
    logger,
    withLock,
    emit,
    resend,
    lastEventOf: (orderId) => lastEventByOrder.get(orderId),
    settle,
    deliveries: sender.deliveries,
  };

  return {
    router: sandboxRouter(emulator),
    state,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    webhookId,
    webhookDeliveries: sender.deliveries,
    sendWebhook: async (eventType, resourceId) =>
      emit(eventType, state.refunds.get(resourceId) ?? findCapture(state, resourceId)),
    resendWebhook: resend,
    settleCapture: async (captureId, result) =>
      (await settle(findCapture(state, captureId), result)).delivery,
    idle: () => sender.idle(),
    close: () => sender.close(),
  };
}

import { AppError, decimalAmount, IllegalStateError, ValidationError } from '@licensestore/domain';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { isUuid } from '../http/ids.js';
import { PayPalError, type WebhookResource, webhookResourceSchema } from '../payments/index.js';
import {
  applyPaymentNews,
  type CheckoutDeps,
  type CommandContext,
  type PaymentNews,
  type RefundNews,
} from './commands.js';
import { PaymentIssueError } from './errors.js';

export interface WebhookDeps extends CheckoutDeps {
  redis: Redis;
  webhookId: string | undefined;
}

/** Long enough to outlast PayPal's redelivery (up to 3 days) with room to spare. */
const SEEN_TTL_SECONDS = 30 * 24 * 60 * 60;

const envelopeSchema = z.looseObject({
  id: z.string().regex(/^[\w.-]{1,128}$/),
  event_type: z.string().max(200),
  resource: z.unknown(),
});

/** Webhook events the store acts on, and the order command each one runs. */
const NEWS: Record<string, PaymentNews> = {
  'PAYMENT.CAPTURE.COMPLETED': 'CompleteOrderPayment',
  'PAYMENT.CAPTURE.DENIED': 'DenyOrderPayment',
  'PAYMENT.CAPTURE.REFUNDED': 'CompleteOrderRefund',
  // A reversal (chargeback) returns the money to the buyer as a refund does.
  'PAYMENT.CAPTURE.REVERSED': 'CompleteOrderRefund',
};

/**
 * The refund a webhook reports: PayPal's refund (or, for a reversal, the capture) and its money; the store's own
 * refunds carry their id as `custom_id`, one made in PayPal's dashboard carries none of the store's.
 */
function refundNews(resource: WebhookResource): RefundNews | null {
  const amount = resource.amount?.value;
  if (!amount || !decimalAmount.safeParse(amount).success) return null;
  const customId = resource.custom_id;
  return {
    paypalRefundId: resource.id,
    amount,
    refundId: customId && isUuid(customId) ? customId.toLowerCase() : null,
  };
}

const header = (req: Request, name: string) => {
  const value = req.get(name);
  return value && value.length <= 2000 ? value : undefined;
};

/**
 * POST /paypal/webhook: verified with PayPal (the body exactly as received), applied through the same
 * idempotent commands as the browser flow, and remembered by event id so a redelivery does nothing.
 * 2xx means "do not send again": a verification failure is 400, and anything PayPal should retry is 5xx.
 */
export async function handleWebhook(deps: WebhookDeps, req: Request, res: Response): Promise<void> {
  const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  let envelope: z.output<typeof envelopeSchema>;
  try {
    envelope = envelopeSchema.parse(JSON.parse(raw));
  } catch {
    throw new ValidationError('Malformed webhook event');
  }
  const transmission = {
    authAlgo: header(req, 'paypal-auth-algo'),
    certUrl: header(req, 'paypal-cert-url'),
    transmissionId: header(req, 'paypal-transmission-id'),
    transmissionSig: header(req, 'paypal-transmission-sig'),
    transmissionTime: header(req, 'paypal-transmission-time'),
  };
  const { authAlgo, certUrl, transmissionId, transmissionSig, transmissionTime } = transmission;
  if (!authAlgo || !certUrl || !transmissionId || !transmissionSig || !transmissionTime) {
    throw new ValidationError('Missing PayPal transmission headers');
  }
  if (!deps.webhookId) {
    deps.logger.error(
      { eventId: envelope.id },
      'webhook received but PAYPAL_WEBHOOK_ID is not set: cannot verify it',
    );
    throw new PaymentIssueError(503, 'Webhook verification is not configured');
  }

  let verification: 'SUCCESS' | 'FAILURE';
  try {
    verification = await deps.paypal.verifyWebhookSignature({
      authAlgo,
      certUrl,
      transmissionId,
      transmissionSig,
      transmissionTime,
      webhookId: deps.webhookId,
      rawEvent: raw,
    });
  } catch (error) {
    deps.logger.warn(
      { err: error, eventId: envelope.id },
      'webhook verification call failed; PayPal will redeliver',
    );
    throw new PaymentIssueError(503, 'Webhook verification unavailable');
  }
  if (verification !== 'SUCCESS') {
    deps.logger.warn(
      { eventId: envelope.id, eventType: envelope.event_type },
      'webhook signature verification failed',
    );
    throw new ValidationError('Webhook signature verification failed');
  }

  const seenKey = `paypal:webhook:${envelope.id}`;
  if (await deps.redis.exists(seenKey)) {
    res.json({ status: 'duplicate' });
    return;
  }
  const context: CommandContext = {
    actor: { type: 'system', id: 'paypal-webhook' },
    correlationId: req.correlationId,
    causationId: envelope.id,
  };
  const status = await applyEvent(deps, envelope, context);
  // Remembered only once applied: a failure above leaves the event for PayPal's redelivery, and running it twice
  // concurrently is harmless because every command is idempotent.
  await deps.redis.set(seenKey, status, 'EX', SEEN_TTL_SECONDS);
  res.json({ status });
}

async function applyEvent(
  deps: WebhookDeps,
  envelope: z.output<typeof envelopeSchema>,
  context: CommandContext,
): Promise<string> {
  const news = NEWS[envelope.event_type];
  const log = { eventId: envelope.id, eventType: envelope.event_type };
  if (!news) return 'ignored';
  const parsed = webhookResourceSchema.safeParse(envelope.resource);
  if (!parsed.success) {
    deps.logger.warn(
      { ...log, issues: parsed.error.message },
      'webhook resource without the fields the store needs',
    );
    return 'ignored';
  }
  const target = await locateCapture(deps, envelope.event_type, parsed.data);
  if (!target) {
    deps.logger.warn(log, 'webhook names no PayPal order the store can find');
    return 'ignored';
  }
  const refund = news === 'CompleteOrderRefund' ? refundNews(parsed.data) : undefined;
  if (refund === null) {
    deps.logger.warn(log, 'refund webhook without an amount the store can read');
    return 'ignored';
  }
  try {
    const result = await applyPaymentNews(deps, news, { ...target, ...(refund ? { refund } : {}) }, context);
    deps.logger.info(
      { ...log, ...target, orderId: result.orderId, outcome: result.outcome },
      'webhook applied',
    );
    return result.outcome;
  } catch (error) {
    // News about another capture than the order's own cannot be applied, now or on redelivery.
    if (error instanceof IllegalStateError) {
      deps.logger.warn({ ...log, ...target, err: error }, 'webhook does not fit the order');
      return 'ignored';
    }
    if (error instanceof AppError && error.status < 500) {
      // A reconciliation capture PayPal refused or the store did not accept (a declined or mismatched
      // capture): a redelivery would meet the same answer, so it is acknowledged, and logged.
      const issue = error instanceof PaymentIssueError ? error.issue : undefined;
      deps.logger.warn({ ...log, ...target, err: error, issue }, 'webhook reconciliation refused');
      return 'refused';
    }
    throw error;
  }
}

/** The PayPal order and capture a webhook is about; a refund names only its capture, which names the order. */
async function locateCapture(
  deps: WebhookDeps,
  eventType: string,
  resource: WebhookResource,
): Promise<{ paypalOrderId: string; captureId: string } | null> {
  const related = resource.supplementary_data?.related_ids;
  const isRefund = eventType === 'PAYMENT.CAPTURE.REFUNDED' || eventType === 'PAYMENT.CAPTURE.REVERSED';
  const captureId = isRefund
    ? (related?.capture_id ??
      upLinkCaptureId(resource) ??
      (eventType.endsWith('REVERSED') ? resource.id : undefined))
    : resource.id;
  if (!captureId) return null;
  if (related?.order_id) return { paypalOrderId: related.order_id, captureId };
  try {
    const capture = await deps.paypal.getCapture(captureId);
    const orderId = capture.supplementary_data?.related_ids?.order_id;
    return orderId ? { paypalOrderId: orderId, captureId } : null;
  } catch (error) {
    if (error instanceof PayPalError && error.status === 404) return null;
    throw new PaymentIssueError(503, `Could not look up capture ${captureId}`);
  }
}

const upLinkCaptureId = (resource: WebhookResource) => {
  const up = resource.links?.find((link) => link.rel === 'up')?.href;
  return up ? /\/v2\/payments\/captures\/([A-Za-z0-9]+)$/.exec(up)?.[1] : undefined;
};

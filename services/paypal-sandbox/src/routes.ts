import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { z } from 'zod';
import type { Emulator } from './emulator.js';
import {
  authenticationFailure,
  debugId,
  ISSUES,
  internalServerError,
  invalidBodyValue,
  invalidRequest,
  PaypalError,
  unprocessableIssue,
} from './errors.js';
import { accessToken, timestamp } from './ids.js';
import { SUPPORTED_CURRENCIES } from './money.js';
import {
  approveWithPaypal,
  type CaptureRef,
  captureOfOrder,
  captureOrder,
  confirmPaymentSource,
  createOrder,
  findCapture,
  findOrder,
  findRefund,
  REFUND_FAILURE_ISSUES,
  type RefundFailureIssue,
  refundCapture,
  renderCapture,
  renderMinimal,
  renderOrder,
  renderRefund,
} from './orders.js';
import { verifyRequest } from './validation.js';
import { verifyTransmission, WEBHOOK_EVENT_TYPES, type WebhookDelivery } from './webhooks.js';

const SDK_SOURCE = readFileSync(new URL('../sdk/paypal-sdk.js', import.meta.url), 'utf8');
const TOKEN_TTL_SECONDS = 32_400;
const APP_ID = 'APP-80W284485P519543T';
const SCOPE = [
  'https://uri.paypal.com/services/payments/payment',
  'https://uri.paypal.com/services/payments/refund',
  'https://uri.paypal.com/services/payments/orders/client-side-integration',
  'https://uri.paypal.com/services/applications/webhooks',
  'https://uri.paypal.com/services/payments/realtimepayment',
  'openid',
].join(' ');

/** The emulator's absolute base URL as this client reaches it (HATEOAS links are absolute). */
const baseUrlOf = (req: Request) => `${req.protocol}://${req.get('host')}${req.baseUrl}`;

const send = (res: Response, status: number, body: unknown) => {
  res.status(status).set('paypal-debug-id', debugId()).json(body);
};

const wantsRepresentation = (req: Request) => /return=representation/i.test(req.get('prefer') ?? '');

const requestIdOf = (req: Request) => {
  const id = req.get('paypal-request-id');
  return id && id.length <= 108 ? id : undefined;
};

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Codes PayPal's negative testing (`PayPal-Mock-Response`) answers with, and the error each gives. */
const MOCK_RESPONSES: Record<string, () => PaypalError> = {
  INTERNAL_SERVER_ERROR: internalServerError,
  PERMISSION_DENIED: () =>
    new PaypalError(403, 'NOT_AUTHORIZED', [
      {
        issue: 'PERMISSION_DENIED',
        description: 'You do not have permission to access or perform operations on this resource.',
      },
    ]),
  ...Object.fromEntries(
    (
      [
        'INSTRUMENT_DECLINED',
        'TRANSACTION_REFUSED',
        'ORDER_NOT_APPROVED',
        'ORDER_ALREADY_CAPTURED',
        'PAYER_ACTION_REQUIRED',
        'ORDER_COMPLETION_IN_PROGRESS',
        'MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED',
        'REDIRECT_PAYER_FOR_ALTERNATE_FUNDING',
        'DUPLICATE_INVOICE_ID',
        'CARD_EXPIRED',
      ] as const
    ).map((issue) => [issue, () => unprocessableIssue(issue, ISSUES[issue])]),
  ),
  ...Object.fromEntries(REFUND_FAILURE_ISSUES.map((issue) => [issue, () => refundRefused(issue)])),
};

/** A refund PayPal refuses: what the store's refund failure path is tested with. */
const refundRefused = (issue: RefundFailureIssue) => unprocessableIssue(issue, ISSUES[issue], 'payments');

const refundFailure = z.object({ issue: z.enum(REFUND_FAILURE_ISSUES) });

const buyerApproval = z.object({
  choice: z.enum(['approve', 'decline', 'pending', 'error']).default('approve'),
  currency: z.string().optional(),
});

export function sandboxRouter(emulator: Emulator): Router {
  const { state, logger } = emulator;
  const tokens = new Map<string, number>();
  const router = Router();
  const json = express.json({ limit: '1mb', type: () => true });

  /** `Authorization: Basic base64(<client id>:<client secret>)` with this emulator's credentials, as PayPal's OAuth. */
  const carriesClientCredentials = (req: Request) => {
    const [scheme, encoded] = (req.get('authorization') ?? '').split(' ');
    const [id = '', ...rest] = Buffer.from(encoded ?? '', 'base64')
      .toString('utf8')
      .split(':');
    return (
      scheme?.toLowerCase() === 'basic' &&
      sameSecret(id, emulator.clientId) &&
      sameSecret(rest.join(':'), emulator.clientSecret)
    );
  };

  /** `Authorization: Bearer <token>` with an unexpired token from this emulator's OAuth endpoint. */
  const carriesToken = (req: Request) => {
    const [scheme, token] = (req.get('authorization') ?? '').split(' ');
    const expiresAt = token ? tokens.get(token) : undefined;
    return scheme?.toLowerCase() === 'bearer' && expiresAt !== undefined && expiresAt > Date.now();
  };

  // --- OAuth ---------------------------------------------------------------------------------------
  router.post('/v1/oauth2/token', express.urlencoded({ extended: false }), (req, res) => {
    if (!carriesClientCredentials(req)) {
      res.status(401).json({ error: 'invalid_client', error_description: 'Client Authentication failed' });
      return;
    }
    const grantType = (req.body as Record<string, unknown> | undefined)?.grant_type;
    if (grantType !== 'client_credentials') {
      res.status(400).json({
        error: 'unsupported_grant_type',
        error_description: grantType ? 'unsupported grant_type' : 'Grant Type is NULL',
      });
      return;
    }
    const token = accessToken();
    const now = Date.now();
    for (const [known, expiresAt] of tokens) if (expiresAt <= now) tokens.delete(known);
    tokens.set(token, now + TOKEN_TTL_SECONDS * 1000);
    res.json({
      scope: SCOPE,
      access_token: token,
      token_type: 'Bearer',
      app_id: APP_ID,
      expires_in: TOKEN_TTL_SECONDS,
      nonce: `${timestamp()}${randomBytes(16).toString('base64url')}`,
    });
  });

  const requireToken = (req: Request, _res: Response, next: NextFunction) => {
    next(carriesToken(req) ? undefined : authenticationFailure());
  };

  /**
   * The emulator's own routes, which PayPal does not have (they settle captures, send webhooks on request and list
   * deliveries): its client credentials or a token bought with them, never an anonymous caller.
   */
  const requireClient = (req: Request, _res: Response, next: NextFunction) => {
    next(carriesClientCredentials(req) || carriesToken(req) ? undefined : authenticationFailure());
  };

  /** PayPal's negative testing: `PayPal-Mock-Response: {"mock_application_codes": "INSTRUMENT_DECLINED"}`. */
  const mockResponse = (req: Request, _res: Response, next: NextFunction) => {
    const header = req.get('paypal-mock-response');
    if (!header) return next();
    let code: unknown;
    try {
      code = (JSON.parse(header) as { mock_application_codes?: unknown }).mock_application_codes;
    } catch {
      code = undefined;
    }
    const mock = typeof code === 'string' ? MOCK_RESPONSES[code] : undefined;
    if (!mock) {
      logger.warn({ header }, 'paypal sandbox: PayPal-Mock-Response not understood, ignored');
      return next();
    }
    next(mock());
  };

  router.use(['/v1/notifications', '/v2'], requireToken, json);
  router.post('/v2/*path', mockResponse);

  // --- Orders v2 -----------------------------------------------------------------------------------
  router.post('/v2/checkout/orders', (req, res) => {
    const requestId = requestIdOf(req);
    const replayed = requestId ? state.createReplies.get(requestId) : undefined;
    const existing = replayed ? state.orders.get(replayed) : undefined;
    const order = existing ?? createOrder(state, req.body, baseUrlOf(req));
    if (requestId && !existing) state.createReplies.set(requestId, order.id);
    send(res, existing ? 200 : 201, wantsRepresentation(req) ? renderOrder(order) : renderMinimal(order));
  });

  router.get('/v2/checkout/orders/:id', (req, res) => {
    send(res, 200, renderOrder(findOrder(state, req.params.id as string)));
  });

  router.post('/v2/checkout/orders/:id/confirm-payment-source', async (req, res) => {
    const order = findOrder(state, req.params.id as string);
    await emulator.withLock(order.id, () => confirmPaymentSource(order, req.body));
    send(res, 200, renderOrder(order));
  });

  router.post('/v2/checkout/orders/:id/capture', async (req, res) => {
    const order = findOrder(state, req.params.id as string);
    const requestId = requestIdOf(req);
    const { status, body } = await emulator.withLock(order.id, async () => {
      const reply = requestId ? order.captureReplies.get(requestId) : undefined;
      if (reply) return { status: 200, body: reply };
      // The processor round trip: without the lock, a concurrent capture would pass the checks meanwhile.
      await new Promise((resolve) => setTimeout(resolve, emulator.captureLatencyMs));
      const captures = captureOrder(state, order);
      const captured = renderOrder(order);
      if (requestId) order.captureReplies.set(requestId, captured);
      for (const ref of captures) {
        void emulator.emit(
          ref.capture.status === 'PENDING' ? 'PAYMENT.CAPTURE.PENDING' : 'PAYMENT.CAPTURE.COMPLETED',
          ref,
        );
      }
      return { status: 201, body: captured };
    });
    send(res, status, body);
  });

  // --- Payments v2 ---------------------------------------------------------------------------------
  router.get('/v2/payments/captures/:id', (req, res) => {
    send(res, 200, renderCapture(findCapture(state, req.params.id as string)));
  });

  router.post('/v2/payments/captures/:id/refund', async (req, res) => {
    const capture = findCapture(state, req.params.id as string);
    const requestId = requestIdOf(req);
    const refund = await emulator.withLock(capture.order.id, () => {
      const replayed = requestId ? state.refundReplies.get(requestId) : undefined;
      if (replayed) return findRefund(state, replayed);
      const failure = state.refundFailures.get(capture.capture.id);
      if (failure) {
        state.refundFailures.delete(capture.capture.id);
        throw refundRefused(failure);
      }
      const made = refundCapture(state, capture, req.body);
      if (requestId) state.refundReplies.set(requestId, made.refund.id);
      void emulator.emit('PAYMENT.CAPTURE.REFUNDED', made);
      return made;
    });
    // Payments v2 answers a refund with 201 only, a replay included (Orders v2 has a 200 for its replays).
    send(res, 201, renderRefund(refund));
  });
  router.get('/v2/payments/refunds/:id', (req, res) => {
    send(res, 200, renderRefund(findRefund(state, req.params.id as string)));
  });

  // --- Webhooks v1 ---------------------------------------------------------------------------------
  router.post('/v1/notifications/verify-webhook-signature', (req, res) => {
    const parsed = verifyRequest.safeParse(req.body ?? {});
    if (!parsed.success) {
      // v1 APIs answer with their own error shape.
      res.status(400).json({
        name: 'VALIDATION_ERROR',
        message: 'Invalid request - see details',
        debug_id: debugId(),
        information_link: 'https://developer.paypal.com/docs/api/webhooks/v1/#error-VALIDATION_ERROR',
        details: parsed.error.issues.map((issue) => ({
          field: issue.path.join('.'),
          location: 'body',
          issue: 'Required field cannot be blank',
        })),
        links: [],
      });
      return;
    }
    const verified = verifyTransmission(emulator.webhookSecret, emulator.webhookId, parsed.data);
    send(res, 200, { verification_status: verified ? 'SUCCESS' : 'FAILURE' });
  });

  router.get('/v1/notifications/webhooks-events/:id', (req, res, next) => {
    const delivery = emulator.deliveries.findLast((candidate) => candidate.event.id === req.params.id);
    if (!delivery) return next(webhookEventNotFound(req.params.id as string));
    send(res, 200, delivery.event);
  });

  router.post('/v1/notifications/webhooks-events/:id/resend', async (req, res, next) => {
    const known = emulator.deliveries.some((candidate) => candidate.event.id === req.params.id);
    if (!known) return next(webhookEventNotFound(req.params.id as string));
    const delivery = emulator.resend(req.params.id as string);
    void delivery.catch(() => undefined);
    send(res, 202, emulator.deliveries.findLast((candidate) => candidate.event.id === req.params.id)?.event);
  });

  // --- Browser SDK and what it calls as the buyer ----------------------------------------------------
  router.get('/sdk/js', (req, res) => {
    const problem = sdkQueryProblem(req.query);
    res.type('application/javascript');
    if (problem) {
      res
        .status(400)
        .set('cache-control', 'no-store')
        .send(
          `/* PayPal sandbox emulator: ${problem} */\nthrow new Error(${JSON.stringify(`SDK Validation error: '${problem}'`)});\n`,
        );
      return;
    }
    res.set('cache-control', 'no-cache').send(SDK_SOURCE);
  });

  // The SDK may be loaded from another origin when the emulator runs on its own port.
  router.use(
    '/buyer',
    (req, res, next) => {
      res.set('access-control-allow-origin', '*');
      if (req.method !== 'OPTIONS') return next();
      res
        .set('access-control-allow-methods', 'POST')
        .set('access-control-allow-headers', 'content-type')
        .status(204)
        .end();
    },
    json,
  );

  router.post('/buyer/orders/:id/approve', async (req, res) => {
    const order = findOrder(state, req.params.id as string);
    const request = buyerApproval.safeParse(req.body ?? {});
    if (!request.success) {
      throw invalidBodyValue('/choice', 'Unknown buyer choice.');
    }
    const { choice, currency } = request.data;
    const orderCurrency = order.purchase_units[0]?.amount.currency_code;
    if (currency && orderCurrency && currency.toUpperCase() !== orderCurrency) {
      throw unprocessableIssue(
        'CURRENCY_MISMATCH',
        `Unexpected currency: ${orderCurrency} passed to order.create. Please ensure you are passing /sdk/js?currency=${orderCurrency} in the paypal script tag.`,
      );
    }
    const payer = await emulator.withLock(order.id, () => approveWithPaypal(order, choice));
    send(res, 200, {
      orderID: order.id,
      payerID: payer.payer_id,
      facilitatorAccessToken: accessToken(),
      status: order.status,
    });
  });

  router.post('/buyer/orders/:id/confirm-payment-source', async (req, res) => {
    const order = findOrder(state, req.params.id as string);
    await emulator.withLock(order.id, () => confirmPaymentSource(order, req.body));
    send(res, 200, renderMinimal(order));
  });

  /** The `approve` / `payer-action` link: approves at once, then returns to the merchant's return_url. */
  router.get('/checkoutnow', async (req, res) => {
    const order = findOrder(state, String(req.query.token ?? ''));
    const payer = await emulator.withLock(order.id, () => approveWithPaypal(order, 'approve'));
    if (order.returnUrl) {
      const target = new URL(order.returnUrl);
      target.searchParams.set('token', order.id);
      target.searchParams.set('PayerID', payer.payer_id);
      res.redirect(303, target.href);
      return;
    }
    res
      .type('text/plain')
      .send(`PayPal sandbox emulator: order ${order.id} approved by ${payer.payer_id}.\n`);
  });

  // --- Control endpoints for tests -----------------------------------------------------------------
  router.use('/simulate', requireClient, json);

  const deliveryView = async (delivery: Promise<WebhookDelivery>, wait: boolean) => {
    if (!wait) {
      void delivery.catch(() => undefined);
      return undefined;
    }
    const done = await delivery;
    return { delivered: done.delivered, attempts: done.attempts, status: done.lastStatus ?? null };
  };
  const waitFor = (req: Request) => req.query.wait === 'true' || req.query.wait === '1';

  for (const [path, result] of [
    ['complete', 'complete'],
    ['deny', 'deny'],
  ] as const) {
    router.post(`/simulate/captures/:id/${path}`, async (req, res) => {
      const ref = findCapture(state, req.params.id as string);
      const delivery = await deliveryView((await emulator.settle(ref, result)).delivery, waitFor(req));
      send(res, 200, { capture: renderCapture(ref), event: emulator.lastEventOf(ref.order.id), delivery });
    });
    router.post(`/simulate/orders/:id/${path}`, async (req, res) => {
      const ref = captureOfOrder(state, req.params.id as string);
      const delivery = await deliveryView((await emulator.settle(ref, result)).delivery, waitFor(req));
      send(res, 200, { capture: renderCapture(ref), event: emulator.lastEventOf(ref.order.id), delivery });
    });
  }

  /**
   * A refund the merchant makes in PayPal's dashboard: the store did not ask for it and hears of it only through
   * PAYMENT.CAPTURE.REFUNDED. Body as the refund API's (`{ amount?, note_to_payer? }`, none = the rest).
   */
  const dashboardRefund = async (req: Request, res: Response, ref: CaptureRef) => {
    const { refund, delivery } = await emulator.withLock(ref.order.id, () => {
      const made = refundCapture(state, ref, req.body);
      return { refund: made, delivery: emulator.emit('PAYMENT.CAPTURE.REFUNDED', made) };
    });
    send(res, 201, {
      refund: renderRefund(refund),
      event: emulator.lastEventOf(ref.order.id),
      delivery: await deliveryView(delivery, waitFor(req)),
    });
  };
  /** Arms the capture's next refund request (one request, whoever sends it) to fail with a PayPal refusal. */
  const armRefundFailure = (req: Request, res: Response, ref: CaptureRef) => {
    const parsed = refundFailure.safeParse(req.body ?? {});
    if (!parsed.success) {
      throw invalidBodyValue('/issue', `One of ${REFUND_FAILURE_ISSUES.join(', ')}.`);
    }
    state.refundFailures.set(ref.capture.id, parsed.data.issue);
    send(res, 200, { capture_id: ref.capture.id, next_refund_fails_with: parsed.data.issue });
  };
  router.post('/simulate/captures/:id/refund-failure', (req, res) =>
    armRefundFailure(req, res, findCapture(state, req.params.id as string)),
  );
  router.post('/simulate/orders/:id/refund-failure', (req, res) =>
    armRefundFailure(req, res, captureOfOrder(state, req.params.id as string)),
  );

  router.post('/simulate/captures/:id/refund', (req, res) =>
    dashboardRefund(req, res, findCapture(state, req.params.id as string)),
  );
  router.post('/simulate/orders/:id/refund', (req, res) =>
    dashboardRefund(req, res, captureOfOrder(state, req.params.id as string)),
  );

  router.post('/simulate/orders/:id/resend-webhook', async (req, res) => {
    const order = findOrder(state, req.params.id as string);
    const event = emulator.lastEventOf(order.id);
    if (!event)
      throw unprocessableIssue('NO_WEBHOOK_SENT', `No webhook was sent about order ${order.id} yet.`);
    const delivery = await deliveryView(emulator.resend(event.id), waitFor(req));
    send(res, 200, { event, delivery });
  });

  router.post('/simulate/orders/:id/webhook', async (req, res) => {
    const eventType = (req.body as { event_type?: unknown } | undefined)?.event_type;
    const known = WEBHOOK_EVENT_TYPES.find((type) => type === eventType);
    if (!known) {
      throw invalidBodyValue(
        '/event_type',
        `One of ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
        typeof eventType === 'string' ? eventType : undefined,
      );
    }
    const ref = captureOfOrder(state, req.params.id as string);
    const delivery = await deliveryView(emulator.emit(known, ref), waitFor(req));
    send(res, 200, { event: emulator.lastEventOf(ref.order.id), delivery });
  });

  router.get('/simulate/deliveries', (_req, res) => {
    res.json(
      emulator.deliveries.map((delivery) => ({
        event_id: delivery.event.id,
        event_type: delivery.event.event_type,
        url: delivery.url,
        attempts: delivery.attempts,
        delivered: delivery.delivered,
        status: delivery.lastStatus ?? null,
      })),
    );
  });

  // --- Everything else ------------------------------------------------------------------------------
  router.use((_req, _res, next) => next(new PaypalError(404, 'RESOURCE_NOT_FOUND')));

  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    let failure: PaypalError;
    if (error instanceof PaypalError) {
      failure = error;
    } else if ((error as { type?: string } | null)?.type === 'entity.parse.failed') {
      failure = invalidRequest([
        {
          location: 'body',
          issue: 'MALFORMED_REQUEST_JSON',
          description: 'The request JSON is not well formed.',
        },
      ]);
    } else if (typeof (error as { status?: unknown } | null)?.status === 'number') {
      failure = invalidRequest([
        { location: 'body', issue: 'INVALID_REQUEST_BODY', description: (error as Error).message },
      ]);
    } else {
      logger.error({ err: error, method: req.method, path: req.path }, 'paypal sandbox: request failed');
      failure = internalServerError();
    }
    const body = failure.toBody();
    res.status(failure.status).set('paypal-debug-id', body.debug_id).json(body);
  });

  return router;
}

const webhookEventNotFound = (id: string) =>
  new PaypalError(
    404,
    'RESOURCE_NOT_FOUND',
    [
      {
        field: 'event_id',
        value: id,
        location: 'path',
        issue: 'INVALID_RESOURCE_ID',
        description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
      },
    ],
    'webhooks',
  );

function sdkQueryProblem(query: Request['query']): string | null {
  const clientId = query['client-id'];
  if (typeof clientId !== 'string' || clientId === '') return 'Expected client-id to be passed';
  const currency = query.currency;
  if (
    currency !== undefined &&
    (typeof currency !== 'string' || !SUPPORTED_CURRENCIES.has(currency.toUpperCase()))
  ) {
    return `Invalid query value for currency: ${String(currency)}`;
  }
  const intent = query.intent;
  if (intent !== undefined && intent !== 'capture')
    return `Invalid query value for intent: ${String(intent)}`;
  return null;
}

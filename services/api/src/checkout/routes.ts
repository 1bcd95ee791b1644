import {
  type CheckoutStartedView,
  captureRequestSchema,
  type PaymentsConfigView,
  startCheckoutRequestSchema,
} from '@licensestore/contract/checkout';
import {
  ForbiddenError,
  NotFoundError,
  type OrderView,
  type PlacedOrder,
  ValidationError,
} from '@licensestore/domain';
import type { Actor } from '@licensestore/domain/events';
import type { OrderAccess } from '@licensestore/platform/order-access';
import express, { type ErrorRequestHandler, type Request, Router } from 'express';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { awaitReadModel } from '../http/read-your-writes.js';
import { parseRequest } from '../http/validation.js';
import { grantOrderAccess } from '../orders/access.js';
import { findOrder } from '../orders/queries.js';
import type { PaymentsSetup } from '../payments/setup.js';
import { grantCheckoutAccess, holdsCheckoutAccess } from './checkout-access.js';
import { type CheckoutDeps, type CommandContext, captureCheckout, startCheckout } from './commands.js';
import { PaymentIssueError } from './errors.js';
import { handleWebhook } from './webhook.js';

export interface CheckoutRoutesDeps extends CheckoutDeps {
  redis: Redis;
  /** PayPal's id for our webhook (PAYPAL_WEBHOOK_ID, or the emulator's); without it no webhook is accepted. */
  webhookId: string | undefined;
  /** Makes and checks the checkout and order access cookies. */
  orderAccess: OrderAccess;
  /** Secure cookies when the site is served over https. */
  secureCookies: boolean;
  /** Projectors a capture's answer waits for (read-your-writes). */
  readModels?: string[];
  /** The caller's address hashed as key custody hashes it: what velocity risk rules count orders by. */
  clientHash(req: Request): string;
}

/** PayPal order ids are upper-case letters and digits; anything else was never created by us. */
const PAYPAL_ORDER_ID = /^[A-Z0-9]{1,64}$/;

/** The customer's own words for their mistakes, without a field prefix. */
const CUSTOMER_FIELDS = new Set(['customerName', 'customerEmail']);

function parseCheckoutBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const customerIssue = result.error.issues.find((issue) => CUSTOMER_FIELDS.has(String(issue.path[0])));
  if (customerIssue && customerIssue.code !== 'invalid_type') {
    throw new ValidationError(customerIssue.message);
  }
  return parseRequest(schema, body);
}

/** The buyer a checkout's start names: both fields or none. */
function startingBuyer(body: z.infer<typeof startCheckoutRequestSchema>) {
  const { customerName: name, customerEmail: email } = body;
  if (name === undefined && email === undefined) return undefined;
  if (name === undefined || email === undefined) {
    throw new ValidationError('customerName and customerEmail go together: send both or neither');
  }
  return { name, email };
}

/**
 * A PayPal order id is no secret (the audit log, server logs, PayPal's pages and the buyer's screen show it), so
 * knowing one gives nothing: the order, its keys and its buyer are the starting browser's alone.
 */
const NOT_YOUR_CHECKOUT =
  'Only the browser that started this checkout can complete it. Please pay from your own cart.';

/** The order as its own stream has it, for when the read model has not caught up within the wait. */
const fromDecider = (order: PlacedOrder): OrderView => ({
  id: order.orderId,
  customerName: order.customer.name,
  customerEmail: order.customer.email,
  total: order.total,
  status: order.status,
  createdAt: order.createdAt,
  paymentStatus: order.payment,
  // The stream keeps no send time; the read model has it once it has caught up.
  deliveryEmailSentAt: null,
  receiptNumber: order.receipt?.number ?? null,
  reviewStatus: order.review,
});

const context = (req: Request, actor: Actor): CommandContext => ({
  actor,
  correlationId: req.correlationId,
  causationId: req.requestId,
});

const renderPaymentIssue: ErrorRequestHandler = (error, _req, res, next) => {
  if (error instanceof PaymentIssueError && error.issue) {
    res.status(error.status).json({ error: error.message, issue: error.issue });
    return;
  }
  next(error);
};

/** GET /api/payments/config: what the web client loads the PayPal SDK with (mounted under /api). */
export function paymentsConfigRoutes(setup: PaymentsSetup): Router {
  const router = Router();
  const body: PaymentsConfigView = {
    clientId: setup.clientId,
    sdkBaseUrl: setup.sdkBaseUrl,
    currency: 'USD',
    simulated: setup.simulated,
  };
  router.get('/payments/config', (_req, res) => {
    res.json(body);
  });
  return router;
}

/** POST /paypal/order, POST /paypal/order/:orderID/capture and POST /paypal/webhook (mounted at the root). */
export function checkoutRoutes(deps: CheckoutRoutesDeps): Router {
  const router = Router();
  const json = express.json({ limit: '100kb' });
  const readModels = deps.readModels ?? ['orders'];
  const cookies = { access: deps.orderAccess, secureCookies: deps.secureCookies };

  router.post('/paypal/order', json, async (req, res) => {
    const body = parseCheckoutBody(startCheckoutRequestSchema, req.body);
    const customer = startingBuyer(body);
    const { paypalOrderId } = await startCheckout(
      deps,
      {
        items: body.items,
        amount: body.amount,
        customId: req.correlationId,
        customer,
        clientHash: deps.clientHash(req),
      },
      context(req, { type: 'customer', id: customer?.email ?? 'guest' }),
    );
    grantCheckoutAccess(res, paypalOrderId, cookies);
    res.status(201).json({ id: paypalOrderId } satisfies CheckoutStartedView);
  });

  router.post('/paypal/order/:orderID/capture', json, async (req, res) => {
    const paypalOrderId = req.params.orderID;
    if (typeof paypalOrderId !== 'string' || !PAYPAL_ORDER_ID.test(paypalOrderId)) {
      throw new NotFoundError('Unknown PayPal order');
    }
    // Before anything is read, checked or sent to PayPal: another caller changes nothing and learns nothing.
    if (!holdsCheckoutAccess(req, paypalOrderId, deps.orderAccess))
      throw new ForbiddenError(NOT_YOUR_CHECKOUT);
    const body = parseCheckoutBody(captureRequestSchema, req.body);
    const customer = { name: body.customerName, email: body.customerEmail };
    const result = await captureCheckout(
      deps,
      paypalOrderId,
      customer,
      context(req, { type: 'customer', id: customer.email }),
    );
    if (result.position && readModels.length > 0) {
      await awaitReadModel(deps.database.pool, result.position, readModels, deps.logger);
    }
    // The stored order, as GET /api/orders/:id shows it next, with the access to its keys.
    const stored = await findOrder(deps.database.db, result.order.orderId);
    grantOrderAccess(res, result.order.orderId, cookies);
    res.set('Cache-Control', 'no-store').json(stored ?? fromDecider(result.order));
  });

  router.post(
    '/paypal/webhook',
    // The body is verified as PayPal sent it: kept raw, whatever content type it claims.
    express.raw({ type: () => true, limit: '1mb' }),
    (req, res) => handleWebhook(deps, req, res),
  );

  router.use(renderPaymentIssue);
  return router;
}

import {
  orderAccessRequestSchema,
  orderListFiltersSchema,
  orderStatusChangeSchema,
} from '@licensestore/contract/orders';
import { refundRequestSchema } from '@licensestore/contract/refunds';
import {
  AppError,
  ForbiddenError,
  liveUnits,
  NotFoundError,
  type OrderCommand,
  type OrderView,
  orderDecider,
  orderStream,
  type RefundableUnitView,
  takeUnits,
  withKeysShownInCustody,
} from '@licensestore/domain';
import { handleCommand, loadStream } from '@licensestore/domain/commands';
import type { EventStore } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import type { KeyVault } from '@licensestore/platform/key-vault';
import type { Logger } from '@licensestore/platform/logging';
import type { OrderAccess } from '@licensestore/platform/order-access';
import { type Request, type Response, Router } from 'express';
import { adminCommandMetadata, requireAdmin, requireBackOffice } from '../auth/guards.js';
import { setCapabilityCookie } from '../http/cookies.js';
import { isUuid } from '../http/ids.js';
import { parsePageQuery } from '../http/paging.js';
import { awaitReadModel } from '../http/read-your-writes.js';
import { ifMatchRevision, setRevisionTag } from '../http/revision-tags.js';
import { parseRequest } from '../http/validation.js';
import { keyRevealer, masked } from '../license-keys/reveal.js';
import type { PaypalClient } from '../payments/index.js';
import { grantOrderAccess, type KeyAccess, keyAccess, orderViewFor } from './access.js';
import { findTaggedBackOfficeOrder } from './back-office-order.js';
import { type KeyCustody, PAGE_VIEW_MS } from './custody.js';
import { orderEventsRoute, PAGE_VIEW_COOKIE, type SnapshotView } from './events-route.js';
import { showOrderItems } from './item-views.js';
import { countedOrderPage } from './order-page-counts.js';
import { OrderWatch } from './order-watch.js';
import {
  findBuyerRefunds,
  findOrder,
  listOrderItems,
  listOrderRefunds,
  listOrders,
  ORDER_KEYSET,
} from './queries.js';
import { type RefundOutcome, requestRefund, settleRefund } from './refunds.js';
import { ORDER_STREAM_LIMITS, type OrderStreamLimits, StreamSlots } from './stream-slots.js';
import { orderTimeline } from './timeline.js';

const orderNotFound = () => new NotFoundError('Order not found');

/** Route ids that are not UUIDs name no order. */
const orderId = (req: Request) => {
  const id = req.params.id;
  if (!isUuid(id)) throw orderNotFound();
  return id.toLowerCase();
};

/** Orders carry names, e-mail addresses and license keys: no cache anywhere keeps them. */
const privateJson = (res: Response, body: unknown) => {
  res.set('Cache-Control', 'no-store');
  res.json(body);
};

export interface OrderRoutesDeps {
  database: DatabaseHandle;
  eventStore: EventStore;
  logger: Logger;
  /** Refunds go through PayPal's refund API. */
  paypal: PaypalClient;
  keyVault: KeyVault;
  /** Checks the order access cookie and the e-mail link's token. */
  orderAccess: OrderAccess;
  /** Records every showing of keys in clear. */
  custody: KeyCustody;
  /** Secure cookies when the site is served over https. */
  secureCookies: boolean;
  /** Bounds on open event streams; the defaults suit production. */
  streamLimits?: Partial<OrderStreamLimits>;
  /** Aborted when the server shuts down: open order event streams end, so the server can close. */
  closing?: AbortSignal;
}

/**
 * Orders. Anyone with an order's id may see the order and its lines (the id names the order, it is no secret), but
 * its license keys and full address only with access to it (see `keyAccess`); POST /orders/:id/access trades the
 * delivery e-mail's token for that access. The list of every order and the timeline are for the back office, the
 * commands for admins only.
 */
export function orderRoutes(deps: OrderRoutesDeps): Router {
  const { database, eventStore, logger, keyVault, orderAccess, custody, secureCookies, closing, paypal } =
    deps;
  const router = Router();
  const { db } = database;
  const reveal = keyRevealer(keyVault, logger);
  const limits = { ...ORDER_STREAM_LIMITS, ...deps.streamLimits };
  const watch = new OrderWatch({
    database,
    logger,
    heartbeatMs: limits.heartbeatMs,
    loadSnapshot: async (id) => {
      const order = await findOrder(db, id);
      return order && { order, items: await listOrderItems(db, order.id) };
    },
  });
  closing?.addEventListener('abort', () => void watch.close(), { once: true });

  const accessTo = (req: Request, order: OrderView) => keyAccess(req, order, orderAccess);
  /** The order as its buyer's page shows it: with the money that went back, and whether this visitor has access. */
  const buyerView = async (order: OrderView, access: KeyAccess) => ({
    ...orderViewFor(order, access),
    ...(await findBuyerRefunds(db, order)),
    hasAccess: access.keys !== 'none',
  });
  const showing = { custody, reveal };
  const snapshotView: SnapshotView = async (req, { order, items }, pageView) => {
    const access = accessTo(req, order);
    const shown = await showOrderItems(showing, req, order, items, access, pageView);
    return {
      view: { ...(await buyerView(order, access)), items: shown.items },
      pageView: shown.showing ? custody.pageViewToken(req, shown.showing) : undefined,
    };
  };

  const refunds = { eventStore, database, paypal, logger };
  /** An admin's order command, on the revision its If-Match names if it has one. */
  const execute = (req: Request, command: OrderCommand) =>
    handleCommand(
      eventStore,
      orderStream(command.orderId),
      orderDecider,
      command,
      adminCommandMetadata(req),
      {
        expectedRevision: ifMatchRevision(req),
      },
    );

  router.get('/orders', requireBackOffice, async (_req, res) => {
    privateJson(res, await listOrders(db));
  });

  // The back office's list: one page, filtered and sorted by the server (GET /api/orders, which the storefront's own screens call, answers them all).
  router.get('/admin/orders', requireBackOffice, async (req, res) => {
    const page = parsePageQuery(ORDER_KEYSET, req.query);
    privateJson(res, await countedOrderPage(db, parseRequest(orderListFiltersSchema, req.query), page));
  });

  router.get('/orders/:orderId', async (req, res) => {
    const kind = req.session?.kind;
    if (kind === 'admin' || kind === 'auditor') {
      const { order, revision } = await findTaggedBackOfficeOrder(
        { database, eventStore },
        req.params.orderId,
      );
      if (!order) throw orderNotFound();
      if (revision !== null) setRevisionTag(res, revision);
      privateJson(res, order);
      return;
    }
    const order = await findOrder(db, req.params.orderId);
    if (!order) throw orderNotFound();
    privateJson(res, await buyerView(order, accessTo(req, order)));
  });

  router.get('/orders/:orderId/items', async (req, res) => {
    const order = await findOrder(db, req.params.orderId);
    if (!order) throw orderNotFound();
    const stored = await listOrderItems(db, order.id);
    const shown = await showOrderItems(showing, req, order, stored, accessTo(req, order));
    // The page's event stream, opened next, shows the same keys: this page view's showing is recorded already.
    if (shown.showing) {
      setCapabilityCookie(
        res,
        {
          name: PAGE_VIEW_COOKIE,
          token: custody.pageViewToken(req, shown.showing),
          path: `/api/orders/${order.id}/events`,
          maxAgeMs: PAGE_VIEW_MS,
        },
        secureCookies,
      );
    }
    privateJson(res, shown.items);
  });

  router.get(
    '/orders/:orderId/events',
    orderEventsRoute({ watch, view: snapshotView, slots: new StreamSlots(limits), limits, logger }),
  );

  // The delivery e-mail's link carries its token in the URL's fragment (never sent to a server, never in a log or
  // a Referer); the page hands it over here and gets the order's access cookie for it.
  router.post('/orders/:id/access', (req, res) => {
    const id = orderId(req);
    const { token } = parseRequest(orderAccessRequestSchema, req.body);
    if (!orderAccess.verify('order-link', id, token)) {
      throw new ForbiddenError('This link does not open that order; use the link in your delivery e-mail');
    }
    grantOrderAccess(res, id, { access: orderAccess, secureCookies, via: 'order-link-cookie' });
    res.set('Cache-Control', 'no-store').status(204).end();
  });

  router.get('/orders/:id/timeline', requireBackOffice, async (req, res) => {
    const timeline = await orderTimeline({ eventStore, db }, orderId(req), reveal);
    if (!timeline) throw orderNotFound();
    privateJson(res, timeline);
  });

  router.patch('/orders/:id/status', requireAdmin, async (req, res) => {
    const id = orderId(req);
    const { status } = parseRequest(orderStatusChangeSchema, req.body);
    const outcome = await execute(req, {
      type: 'ChangeOrderStatus',
      orderId: id,
      to: status,
      now: new Date().toISOString(),
    });
    // Unchanged (already that status) waits too: the status it has may have been set a moment ago.
    if (outcome.position) await awaitReadModel(database.pool, outcome.position, ['orders'], logger);
    const order = await findOrder(db, id);
    if (!order) throw orderNotFound();
    privateJson(res, order);
  });

  // What the refund dialog offers: each unit still the customer's and not in a refund in flight, with its key masked
  // and whether the key left the store (refunding it revokes the key; otherwise the key returns to stock).
  router.get('/orders/:id/refundable-units', requireAdmin, async (req, res) => {
    const { state: order } = await loadStream(eventStore, orderStream(orderId(req)), orderDecider);
    if (order.status === 'absent') throw orderNotFound();
    const inFlight = order.refunds.filter((refund) => refund.status === 'requested').flatMap((r) => r.units);
    const units = takeUnits(inFlight, liveUnits(order)).rest;
    // A key shown in clear left the store though only the order's custody stream says so.
    const out = new Set((await withKeysShownInCustody(eventStore, order)).keysOutOfStore);
    const hide = masked(reveal);
    privateJson(
      res,
      units.map((unit) => {
        const line = order.lines.find((candidate) => candidate.lineId === unit.lineId);
        const sealed = order.keys[unit.lineId]?.find((key) => key.keyId === unit.keyId)?.key;
        return {
          lineId: unit.lineId,
          keyId: unit.keyId,
          productName: line?.productName ?? unit.lineId,
          unitPrice: line?.unitPrice ?? '0.00',
          maskedKey: sealed ? hide(sealed, { orderId: order.orderId }) : null,
          leftStore: unit.keyId !== null && out.has(unit.keyId),
        } satisfies RefundableUnitView;
      }),
    );
  });

  router.get('/orders/:id/refunds', requireBackOffice, async (req, res) => {
    const id = orderId(req);
    if (!(await findOrder(db, id))) throw orderNotFound();
    privateJson(res, await listOrderRefunds(db, id));
  });

  /** Completed: 201; still with PayPal: 202; refused by PayPal: 422 naming its issue code. */
  const answerRefund = async (res: Response, id: string, outcome: RefundOutcome) => {
    if (outcome.position) await awaitReadModel(database.pool, outcome.position, ['orders'], logger);
    const refund = (await listOrderRefunds(db, id)).find((row) => row.refundId === outcome.refundId);
    if (outcome.status === 'failed') {
      const message = refund?.failureMessage ?? 'PayPal refused the refund';
      throw new AppError(
        422,
        `PayPal refused the refund: ${message} (${outcome.code ?? refund?.failureCode})`,
      );
    }
    res
      .set('Cache-Control', 'no-store')
      .status(outcome.status === 'completed' ? 201 : 202)
      .json(refund);
  };

  router.post('/orders/:id/refunds', requireAdmin, async (req, res) => {
    const id = orderId(req);
    const body = parseRequest(refundRequestSchema, req.body);
    const outcome = await requestRefund(refunds, id, body, adminCommandMetadata(req), {
      expectedRevision: ifMatchRevision(req),
    });
    await answerRefund(res, id, outcome);
  });

  // Asks PayPal again with the same PayPal-Request-Id: a refund whose answer was lost completes, never twice.
  router.post('/orders/:id/refunds/:refundId/retry', requireAdmin, async (req, res) => {
    const id = orderId(req);
    const refundId = req.params.refundId;
    if (!isUuid(refundId)) throw new NotFoundError('Refund not found');
    const outcome = await settleRefund(refunds, id, refundId.toLowerCase(), adminCommandMetadata(req));
    await answerRefund(res, id, outcome);
  });

  router.post('/orders/:id/delivery-email', requireAdmin, async (req, res) => {
    const requestedAt = new Date().toISOString();
    await execute(req, { type: 'RequestDeliveryEmailResend', orderId: orderId(req), now: requestedAt });
    res.status(202).json({ requestedAt });
  });

  return router;
}

import {
  type ReviewDecisionView,
  rejectReviewRequestSchema,
  reviewListQuerySchema,
  riskRulesRequestSchema,
  whatIfRequestSchema,
} from '@licensestore/contract/risk';
import {
  NotFoundError,
  type OrderCommand,
  orderDecider,
  orderStream,
  RISK_RULES_STREAM,
  riskDecider,
  ValidationError,
} from '@licensestore/domain';
import { handleCommand } from '@licensestore/domain/commands';
import { timeOrderedId } from '@licensestore/platform/ids';
import { type Request, type Response, Router } from 'express';
import { adminCommandMetadata, requireAdmin, requireBackOffice } from '../auth/guards.js';
import { isUuid } from '../http/ids.js';
import { ifMatchRevision, setRevisionTag } from '../http/revision-tags.js';
import { parseRequest } from '../http/validation.js';
import { type RefundDeps, settleRefund } from '../orders/refunds.js';
import { listReviews } from './reviews.js';
import { loadRiskRules } from './rules.js';
import { lastTwelveMonths, type RunWhatIf } from './what-if.js';

const privateJson = (res: Response, body: unknown) => {
  res.set('Cache-Control', 'no-store').json(body);
};

const reviewedOrderId = (req: Request) => {
  const id = String(req.params.orderId);
  if (!isUuid(id)) throw new NotFoundError('Order not found');
  return id.toLowerCase();
};

/**
 * The risk rules (read by the back office, auditors included; changed by admins only, each change an event naming
 * the admin) and the review queue of the orders they hold, with its two decisions.
 */
export function riskRoutes(deps: RefundDeps & { runWhatIf: RunWhatIf }): Router {
  const { eventStore, database } = deps;
  const { db } = database;
  const router = Router();

  const answerRules = async (res: Response) => {
    const { view, revision } = await loadRiskRules(eventStore, db);
    if (revision !== 'no_stream') setRevisionTag(res, revision);
    privateJson(res, view);
  };

  router.get('/admin/risk-rules', requireBackOffice, async (_req, res) => {
    await answerRules(res);
  });

  router.put('/admin/risk-rules', requireAdmin, async (req, res) => {
    const changes = parseRequest(riskRulesRequestSchema, req.body);
    const { view } = await loadRiskRules(eventStore, db);
    await handleCommand(
      eventStore,
      RISK_RULES_STREAM,
      riskDecider,
      { type: 'ChangeRiskRules', rules: { ...view.rules, ...changes }, now: new Date().toISOString() },
      adminCommandMetadata(req),
      { expectedRevision: ifMatchRevision(req) },
    );
    await answerRules(res);
  });

  // A draft against the history, before it is switched on; admins run it (each run is recorded), auditors read the
  // runs in the event log. A draft that does not read is refused here, before anything is queued.
  router.post('/admin/risk-rules/what-if', requireAdmin, async (req, res) => {
    const request = parseRequest(whatIfRequestSchema, req.body);
    const { view } = await loadRiskRules(eventStore, db);
    const defaults = lastTwelveMonths(new Date());
    const period = { from: request.from ?? defaults.from, to: request.to ?? defaults.to };
    if (Date.parse(period.from) >= Date.parse(period.to)) throw new ValidationError('to: must be after from');
    const draft = { ...view.rules, ...request.draft };
    privateJson(
      res,
      await deps.runWhatIf({ draft, current: view.rules, period, metadata: adminCommandMetadata(req) }),
    );
  });

  router.get('/admin/reviews', requireBackOffice, async (req, res) => {
    const { status } = parseRequest(reviewListQuerySchema, req.query);
    const { view } = await loadRiskRules(eventStore, db);
    privateJson(
      res,
      await listReviews(db, status, { overdueAfterMinutes: view.rules.overdueAfterMinutes, now: new Date() }),
    );
  });

  const decide = (req: Request, command: OrderCommand) =>
    handleCommand(eventStore, orderStream(command.orderId), orderDecider, command, adminCommandMetadata(req));

  router.post('/admin/reviews/:orderId/approve', requireAdmin, async (req, res) => {
    const orderId = reviewedOrderId(req);
    await decide(req, { type: 'ApproveOrder', orderId, automatic: false, now: new Date().toISOString() });
    privateJson(res, { orderId, reviewStatus: 'approved' } satisfies ReviewDecisionView);
  });

  // The rejection and its full refund are one decision on the order; PayPal is asked after it is recorded, by the
  // path every refund takes (an unanswered request stays requested and completes by PayPal's webhook).
  router.post('/admin/reviews/:orderId/reject', requireAdmin, async (req, res) => {
    const orderId = reviewedOrderId(req);
    const { reason } = parseRequest(rejectReviewRequestSchema, req.body);
    const refundId = timeOrderedId();
    const { state } = await decide(req, {
      type: 'RejectOrder',
      orderId,
      refundId,
      reason,
      now: new Date().toISOString(),
    });
    const requested =
      state.status !== 'absent' && state.refunds.some((refund) => refund.refundId === refundId);
    const refund = requested ? await settleRefund(deps, orderId, refundId, adminCommandMetadata(req)) : null;
    privateJson(res, {
      orderId,
      reviewStatus: 'rejected',
      ...(refund ? { refund: { refundId, status: refund.status } } : {}),
    } satisfies ReviewDecisionView);
  });
  return router;
}

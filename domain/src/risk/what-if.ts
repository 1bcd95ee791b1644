import { z } from 'zod';
import { decimalTotal, formatCents, toCents } from '../money/index.js';
import { customerEmailKey } from '../orders/customer-email-key.js';
import type { OrderEvent } from '../orders/events.js';
import { type RiskRuleName, type RiskRules, riskRuleNameSchema } from './rules.js';
import { matchRiskRules } from './screening.js';

const count = z.number().int().min(0);

/** One month of a what-if: orders placed in it, and what the draft and the current rules would have held of them. */
const whatIfMonthSchema = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  orders: count,
  held: count,
  heldValue: decimalTotal,
  heldLaterRefundedOrDenied: count,
  currentRulesHeld: count,
});

/** What a draft rule set would have held of the orders placed in a period, next to what the current rules would. */
export const whatIfResultSchema = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  orders: count,
  held: count,
  heldValue: decimalTotal,
  /** Of the orders the draft would have held, those later refunded (in whole or part) or whose payment was denied. */
  heldLaterRefundedOrDenied: count,
  currentRulesHeld: count,
  perRule: z.array(z.object({ rule: riskRuleNameSchema, held: count, heldValue: decimalTotal })),
  perMonth: z.array(whatIfMonthSchema),
});
export type WhatIfResult = z.infer<typeof whatIfResultSchema>;

interface Month {
  orders: number;
  held: number;
  heldCents: number;
  heldLaterRefundedOrDenied: number;
  currentRulesHeld: number;
}

/** What the fold keeps of one order it has seen: whose it is, and, placed in the period, what became of it. */
interface SeenOrder {
  emailKey: string;
  /** Counted in the customer's earlier orders (a denied payment takes it out again). */
  counted: boolean;
  /** Placed in the period and held by the draft: its month, to count a later refund or denial once. */
  heldIn: Month | null;
}

const monthOf = (at: string) => at.slice(0, 7);

/** The order events the fold reads (the rest change nothing it counts): a reader of the log need hand it no other. */
export const WHAT_IF_EVENT_TYPES = [
  'OrderCaptured',
  'OrderPaymentDenied',
  'OrderRefunded',
  'OrderRefundCompleted',
] as const satisfies readonly OrderEvent['type'][];

/**
 * Replays the order events of the log, in log order, screening each order as it was placed with the draft rules and
 * with the current ones, on the history the log had by then (the buyer's earlier orders, the client address's recent
 * ones), exactly as placement screens. Orders placed before the period are folded for that history only.
 */
export class WhatIfFold {
  private readonly fromMs: number;
  private readonly toMs: number;
  private readonly windowMs: number;
  private readonly orders = new Map<string, SeenOrder>();
  private readonly customers = new Map<string, number>();
  private readonly clients = new Map<string, Array<{ atMs: number; email: string }>>();
  private readonly months = new Map<string, Month>();
  private readonly perRule = new Map<RiskRuleName, { held: number; cents: number }>();

  constructor(
    private readonly draft: RiskRules,
    private readonly current: RiskRules,
    private readonly period: { from: string; to: string },
  ) {
    this.fromMs = Date.parse(period.from);
    this.toMs = Date.parse(period.to);
    const minutes = Math.max(draft.velocity?.windowMinutes ?? 0, current.velocity?.windowMinutes ?? 0);
    this.windowMs = minutes * 60_000;
  }

  apply(event: OrderEvent): void {
    if (event.type === 'OrderCaptured') {
      this.placed(event.data);
      return;
    }
    const order = this.orders.get(event.data.orderId);
    if (!order) return;
    const takenBack =
      event.type === 'OrderPaymentDenied' ||
      event.type === 'OrderRefunded' ||
      event.type === 'OrderRefundCompleted';
    if (event.type === 'OrderPaymentDenied' && order.counted) {
      order.counted = false;
      this.customers.set(order.emailKey, (this.customers.get(order.emailKey) ?? 1) - 1);
    }
    if (takenBack && order.heldIn) {
      order.heldIn.heldLaterRefundedOrDenied += 1;
      order.heldIn = null;
    }
  }

  private placed(data: Extract<OrderEvent, { type: 'OrderCaptured' }>['data']) {
    // A capture seen again (a replayed fact) changes nothing the fold counted.
    if (this.orders.has(data.orderId)) return;
    const emailKey = customerEmailKey(data.customer.email);
    const atMs = Date.parse(data.capturedAt);
    const recent = this.recentFrom(data.clientHash, atMs);
    const seen: SeenOrder = { emailKey, counted: true, heldIn: null };
    if (atMs >= this.fromMs && atMs < this.toMs) {
      const history = {
        earlierOrdersOfCustomer: this.customers.get(emailKey) ?? 0,
        recentFromClient: recent,
      };
      const screened = { total: data.total, email: data.customer.email, lines: data.lines };
      const draftHeld = matchRiskRules(this.draft, screened, history);
      const month = this.month(monthOf(data.capturedAt));
      const cents = toCents(data.total);
      month.orders += 1;
      if (matchRiskRules(this.current, screened, history).length > 0) month.currentRulesHeld += 1;
      if (draftHeld.length > 0) {
        month.held += 1;
        month.heldCents += cents;
        seen.heldIn = month;
        for (const rule of draftHeld) {
          const figures = this.perRule.get(rule) ?? { held: 0, cents: 0 };
          figures.held += 1;
          figures.cents += cents;
          this.perRule.set(rule, figures);
        }
      }
    }
    this.orders.set(data.orderId, seen);
    this.customers.set(emailKey, (this.customers.get(emailKey) ?? 0) + 1);
    if (data.clientHash && this.windowMs > 0) {
      this.clients.set(data.clientHash, [...recent, { atMs, email: data.customer.email }]);
    }
  }

  /** The client address's orders within the longest velocity window before `atMs` (older ones are let go). */
  private recentFrom(clientHash: string | undefined, atMs: number) {
    if (!clientHash || this.windowMs === 0) return [];
    return (this.clients.get(clientHash) ?? []).filter((order) => order.atMs >= atMs - this.windowMs);
  }

  private month(key: string): Month {
    let month = this.months.get(key);
    if (!month) {
      month = { orders: 0, held: 0, heldCents: 0, heldLaterRefundedOrDenied: 0, currentRulesHeld: 0 };
      this.months.set(key, month);
    }
    return month;
  }

  result(): WhatIfResult {
    const perMonth = [...this.months.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([month, figures]) => ({
        month,
        orders: figures.orders,
        held: figures.held,
        heldValue: formatCents(figures.heldCents),
        heldLaterRefundedOrDenied: figures.heldLaterRefundedOrDenied,
        currentRulesHeld: figures.currentRulesHeld,
      }));
    const sum = (pick: (month: Month) => number) =>
      [...this.months.values()].reduce((total, month) => total + pick(month), 0);
    return {
      from: this.period.from,
      to: this.period.to,
      orders: sum((month) => month.orders),
      held: sum((month) => month.held),
      heldValue: formatCents(sum((month) => month.heldCents)),
      heldLaterRefundedOrDenied: sum((month) => month.heldLaterRefundedOrDenied),
      currentRulesHeld: sum((month) => month.currentRulesHeld),
      perRule: riskRuleNameSchema.options.flatMap((rule) => {
        const figures = this.perRule.get(rule);
        return figures ? [{ rule, held: figures.held, heldValue: formatCents(figures.cents) }] : [];
      }),
      perMonth,
    };
  }
}

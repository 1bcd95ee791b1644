import { describe, expect, it } from 'vitest';
import { NO_RISK_RULES, type RiskRules } from './rules.js';
import { matchRiskRules, type ScreenedOrder, type ScreeningHistory } from './screening.js';

const order: ScreenedOrder = {
  total: '500.00',
  email: 'Ada@Example.com',
  lines: [
    { productId: 'office', quantity: 2 },
    { productId: 'antivirus', quantity: 1 },
  ],
};
const returning: ScreeningHistory = { earlierOrdersOfCustomer: 3, recentFromClient: [] };
const match = (rules: Partial<RiskRules>, history = returning, screened = order) =>
  matchRiskRules({ ...NO_RISK_RULES, ...rules }, screened, history);

describe('Risk screening', () => {
  describe('with no rules set', () => {
    it('holds nothing', () => {
      expect(match({}, { earlierOrdersOfCustomer: 0, recentFromClient: [{ email: 'x@y.z' }] })).toEqual([]);
    });
  });

  describe('by the order total', () => {
    it('holds an order at or above the amount, not below', () => {
      expect(match({ holdAtOrAbove: '500.00' })).toEqual(['order-total']);
      expect(match({ holdAtOrAbove: '500.01' })).toEqual([]);
    });
  });

  describe("by a customer's first order", () => {
    it('holds it at or above the amount, and no later order', () => {
      const first = { earlierOrdersOfCustomer: 0, recentFromClient: [] };
      expect(match({ firstOrderAtOrAbove: '100.00' }, first)).toEqual(['first-order']);
      expect(match({ firstOrderAtOrAbove: '100.00' })).toEqual([]);
      expect(match({ firstOrderAtOrAbove: '600.00' }, first)).toEqual([]);
    });
  });

  describe('by velocity from one client address', () => {
    const fourBefore = {
      earlierOrdersOfCustomer: 0,
      recentFromClient: ['a@x.com', 'b@x.com', 'ada@example.com', 'A@X.com'].map((email) => ({ email })),
    };

    it('holds the order that makes more than N orders in the window', () => {
      const velocity = { windowMinutes: 10, maxOrders: 4, maxEmails: null };
      expect(match({ velocity }, fourBefore)).toEqual(['velocity-orders']);
      expect(match({ velocity: { ...velocity, maxOrders: 5 } }, fourBefore)).toEqual([]);
    });

    it('counts distinct e-mail addresses whatever their case, this order included', () => {
      const velocity = { windowMinutes: 10, maxOrders: null, maxEmails: 2 };
      expect(match({ velocity }, fourBefore)).toEqual(['velocity-emails']);
      expect(match({ velocity: { ...velocity, maxEmails: 3 } }, fourBefore)).toEqual([]);
    });
  });

  describe('by blocked e-mail domains', () => {
    it('holds an address at the domain or one of its subdomains, not at a lookalike', () => {
      expect(match({ blockedEmailDomains: ['example.com'] })).toEqual(['blocked-email-domain']);
      const sub = { ...order, email: 'ada@mail.example.com' };
      expect(match({ blockedEmailDomains: ['example.com'] }, returning, sub)).toEqual([
        'blocked-email-domain',
      ]);
      const lookalike = { ...order, email: 'ada@notexample.com' };
      expect(match({ blockedEmailDomains: ['example.com'] }, returning, lookalike)).toEqual([]);
    });
  });

  describe('by the quantity of one product', () => {
    it('adds up the lines of the same product', () => {
      expect(match({ productQuantityAtOrAbove: 2 })).toEqual(['product-quantity']);
      expect(match({ productQuantityAtOrAbove: 3 })).toEqual([]);
      const split = { ...order, lines: [...order.lines, { productId: 'office', quantity: 1 }] };
      expect(match({ productQuantityAtOrAbove: 3 }, returning, split)).toEqual(['product-quantity']);
    });
  });

  it('names every rule matched, in the order the rules are listed', () => {
    expect(
      match(
        { holdAtOrAbove: '10.00', blockedEmailDomains: ['example.com'], productQuantityAtOrAbove: 1 },
        returning,
      ),
    ).toEqual(['order-total', 'blocked-email-domain', 'product-quantity']);
  });
});

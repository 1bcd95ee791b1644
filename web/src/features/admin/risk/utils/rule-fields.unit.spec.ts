import { describe, expect, it } from 'vitest';
import { fieldsOf, rulesOf } from './rule-fields';

const rules = {
  holdAtOrAbove: '500.00',
  firstOrderAtOrAbove: null,
  velocity: { windowMinutes: 10, maxOrders: 4, maxEmails: null },
  blockedEmailDomains: ['mailinator.com', 'example.org'],
  productQuantityAtOrAbove: null,
  overdueAfterMinutes: 60,
  autoApproveAfterMinutes: null,
};

describe('rule fields', () => {
  it('give back the rules they were filled from', () => {
    expect(rulesOf(fieldsOf(rules))).toEqual(rules);
  });

  it('switch the velocity rule off without a window or without a limit, and split domains on any blank or comma', () => {
    const fields = fieldsOf(rules);
    expect(rulesOf({ ...fields, velocityWindowMinutes: '' }).velocity).toBeNull();
    expect(rulesOf({ ...fields, velocityMaxOrders: ' ' }).velocity).toBeNull();
    expect(rulesOf({ ...fields, blockedEmailDomains: 'a.com, b.org\n\nc.net' }).blockedEmailDomains).toEqual([
      'a.com',
      'b.org',
      'c.net',
    ]);
  });
});

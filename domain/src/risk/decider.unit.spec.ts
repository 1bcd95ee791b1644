import { describe, it } from 'vitest';
import { givenHistory } from '../testing/given.js';
import type { RiskEvent } from './events.js';
import { riskDecider } from './index.js';
import { NO_RISK_RULES, type RiskRules } from './rules.js';

const now = '2026-03-01T10:00:00.000Z';
const strict: RiskRules = {
  ...NO_RISK_RULES,
  holdAtOrAbove: '500.00',
  blockedEmailDomains: ['mailinator.com'],
};
const changed = (rules: RiskRules, changedFields: string[]): RiskEvent => ({
  type: 'RiskRulesChanged',
  data: { rules, changedFields, changedAt: now },
});

const given = givenHistory(riskDecider);

describe('Risk rules', () => {
  describe('when none were ever set', () => {
    it('records the whole set and the fields that differ from holding nothing', () => {
      given()
        .when({ type: 'ChangeRiskRules', rules: strict, now })
        .thenEmits(changed(strict, ['holdAtOrAbove', 'blockedEmailDomains']));
    });
  });

  describe('when they were set', () => {
    it('records a change of one field as that field', () => {
      const velocity = { windowMinutes: 10, maxOrders: 4, maxEmails: null };
      given(changed(strict, ['holdAtOrAbove']))
        .when({ type: 'ChangeRiskRules', rules: { ...strict, velocity }, now })
        .thenEmits(changed({ ...strict, velocity }, ['velocity']));
    });

    it('records nothing when saved unchanged', () => {
      given(changed(strict, ['holdAtOrAbove']))
        .when({ type: 'ChangeRiskRules', rules: { ...strict }, now })
        .thenEmitsNothing();
    });
  });
});

import type { RiskEvent } from './events.js';
import { NO_RISK_RULES, type RiskRules } from './rules.js';

export type RiskCommand = { type: 'ChangeRiskRules'; rules: RiskRules; now: string };

export interface RiskState {
  rules: RiskRules;
  /** When the rules were last changed; null while they are the defaults. */
  changedAt: string | null;
}

export const initialRiskState: RiskState = { rules: NO_RISK_RULES, changedAt: null };

export function evolveRisk(state: RiskState, event: RiskEvent): RiskState {
  switch (event.type) {
    case 'RiskRulesChanged':
      return { rules: event.data.rules, changedAt: event.data.changedAt };
    // A what-if changes no rule.
    case 'RiskWhatIfRun':
      return state;
  }
}

/** The fields whose value differs, compared as the JSON the event records. */
const changedFields = (before: RiskRules, after: RiskRules) =>
  (Object.keys(after) as (keyof RiskRules)[]).filter(
    (field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]),
  );

/** Saving the rules as they are records nothing: the history lists only real changes. */
function changeRiskRules(cmd: RiskCommand, state: RiskState): RiskEvent[] {
  const changed = changedFields(state.rules, cmd.rules);
  if (changed.length === 0) return [];
  return [
    { type: 'RiskRulesChanged', data: { rules: cmd.rules, changedFields: changed, changedAt: cmd.now } },
  ];
}

export function decideRisk(cmd: RiskCommand, state: RiskState): RiskEvent[] {
  switch (cmd.type) {
    case 'ChangeRiskRules':
      return changeRiskRules(cmd, state);
    default: {
      const exhaustive: never = cmd.type;
      return exhaustive;
    }
  }
}

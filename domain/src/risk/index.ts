import type { Decider } from '../commands/index.js';
import { decideRisk, evolveRisk, initialRiskState, type RiskCommand, type RiskState } from './decider.js';
import { parseRiskEvent, type RiskEvent } from './events.js';

export * from './decider.js';
export * from './events.js';
export * from './rules.js';
export * from './screening.js';
export * from './what-if.js';
export * from './what-if-job.js';

/** `risk-rules`: the rules that hold orders for review, and every change made to them. */
export const riskDecider: Decider<RiskCommand, RiskState, RiskEvent> = {
  initialState: initialRiskState,
  decide: decideRisk,
  evolve: evolveRisk,
  parse: parseRiskEvent,
};

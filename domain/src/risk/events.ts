import { z } from 'zod';
import { parseEventData } from '../events/event-data.js';
import { riskRulesSchema } from './rules.js';
import { whatIfResultSchema } from './what-if.js';

/** The category of the store's one `risk-rules` stream. */
export const RISK_CATEGORY = 'risk';
export const RISK_RULES_STREAM = `${RISK_CATEGORY}-rules`;
/** Every what-if run, apart from the rules: a run must not move the revision a save of the rules names. */
export const RISK_WHAT_IF_STREAM = `${RISK_CATEGORY}-whatif`;

/** Events of the `risk-rules` stream; who acted is in each event's metadata. */
export const riskEventSchemas = {
  /** An admin saved the rules: the whole set as it is now, and which of its fields differ from before. */
  RiskRulesChanged: z.object({
    rules: riskRulesSchema,
    changedFields: z.array(z.string().min(1)).min(1),
    changedAt: z.iso.datetime(),
  }),
  /** An admin ran a draft rule set against a period of the history: the draft and what it would have held. */
  RiskWhatIfRun: z.object({
    draft: riskRulesSchema,
    result: whatIfResultSchema,
    ranAt: z.iso.datetime(),
  }),
};

export type RiskEvent = {
  [K in keyof typeof riskEventSchemas]: { type: K; data: z.infer<(typeof riskEventSchemas)[K]> };
}[keyof typeof riskEventSchemas];

export function parseRiskEvent(type: string, data: unknown): RiskEvent | null {
  if (!(type in riskEventSchemas)) return null;
  return { type, data: parseEventData(riskEventSchemas[type as RiskEvent['type']], data) } as RiskEvent;
}

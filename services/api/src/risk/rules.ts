import type { RiskRulesView } from '@licensestore/contract/risk';
import { RISK_RULES_STREAM, riskDecider } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Kysely } from 'kysely';
import { adminUsernames } from '../orders/admin-usernames.js';

/**
 * The rules in force as the stream holds them (a handful of events, read whole), with the revision a save's
 * If-Match names and who saved them last, by username.
 */
export async function loadRiskRules(
  eventStore: EventStore,
  db: Kysely<Database>,
): Promise<{ view: RiskRulesView; revision: bigint | 'no_stream' }> {
  let state = riskDecider.initialState;
  let revision: bigint | 'no_stream' = 'no_stream';
  let changedBy: string | null = null;
  for await (const recorded of eventStore.readStream(RISK_RULES_STREAM)) {
    const event = riskDecider.parse(recorded.type, recorded.data);
    if (event) {
      state = riskDecider.evolve(state, event);
      changedBy = recorded.metadata.actor.id;
    }
    revision = recorded.revision;
  }
  const names = await adminUsernames(db, changedBy ? [changedBy] : []);
  return {
    view: {
      rules: state.rules,
      changedAt: state.changedAt,
      changedBy: changedBy === null ? null : (names.get(changedBy) ?? changedBy),
    },
    revision,
  };
}

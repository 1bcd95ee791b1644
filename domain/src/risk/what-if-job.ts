import { z } from 'zod';
import { eventMetadataSchema } from '../events/port.js';
import { riskRulesSchema } from './rules.js';

/**
 * A what-if travels from the api to the projections role as a job of this queue, one per run; its result is the
 * job's return value, which the api answers with.
 */
export const RISK_WHAT_IF_QUEUE = 'risk-what-if';
export const RISK_WHAT_IF_JOB = 'what-if';
export const whatIfJobSchema = z.object({
  draft: riskRulesSchema,
  /** The rules in force when the run was asked for, whose holds the figures set beside the draft's. */
  current: riskRulesSchema,
  period: z.object({ from: z.iso.datetime(), to: z.iso.datetime() }),
  /** Who asked, and in which request: the metadata the run is recorded with. */
  metadata: eventMetadataSchema.omit({ schemaVersion: true }),
});
export type WhatIfJob = z.infer<typeof whatIfJobSchema>;

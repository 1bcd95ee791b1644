import type { NewEventMetadata, RecordedEvent } from '@licensestore/domain/events';
import { z } from 'zod';

/** The event a job comes from: what the events the job appends name as their cause and correlation. */
export const causeSchema = z.object({ eventId: z.string().min(1), correlationId: z.string().min(1) });
export type Cause = z.infer<typeof causeSchema>;

export const causeOf = (event: RecordedEvent): Cause => ({
  eventId: event.id,
  correlationId: event.metadata.correlationId,
});

export const workersMetadata = (cause: Cause): NewEventMetadata => ({
  actor: { type: 'system', id: 'workers' },
  correlationId: cause.correlationId,
  causationId: cause.eventId,
});

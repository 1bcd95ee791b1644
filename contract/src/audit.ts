// The audit screens' queries, and their answers that are not the audit log's own views.
import { storableText } from '@licensestore/domain/text';
import { z } from 'zod';

const moment = z.iso.datetime({
  offset: true,
  message: 'must be an ISO 8601 date-time, e.g. 2026-11-24T09:00:00Z',
});

/** GET /api/audit/orders/:id/as-of and /api/audit/dashboard/as-of: the moment to show. */
export const asOfQuerySchema = z.object({ at: moment.transform((at) => new Date(at)) });

/** GET /api/audit/events: the log's filters and its page. */
export const auditEventsQuerySchema = z.object({
  type: z
    .string()
    .regex(/^[A-Za-z]{1,100}$/, 'must be an event type, e.g. OrderCaptured')
    .optional(),
  actor: storableText({ max: 200 }).optional(),
  order: z.uuid({ message: 'must be an order id' }).optional(),
  product: z.uuid({ message: 'must be a product id' }).optional(),
  from: moment.transform((at) => new Date(at)).optional(),
  to: moment.transform((at) => new Date(at)).optional(),
  /** Position cursor: only events before it (the page after the one that ended there). */
  before: z
    .string()
    .regex(/^[\w/:.-]{1,100}$/, 'must be a cursor from a previous page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AuditEventsQuery = z.output<typeof auditEventsQuerySchema>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day that exists: 2026-02-30 would roll over to March in a Date. */
const isDay = (text: string) => {
  const midnight = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(midnight.getTime()) && midnight.toISOString().startsWith(text);
};

/** A date (midnight UTC) or an ISO timestamp with Z or an offset, as `npm run audit:export` reads them. */
const when = z
  .string()
  .max(40)
  .refine(
    (text) => (DAY.test(text) ? isDay(text) : z.iso.datetime({ offset: true }).safeParse(text).success),
    'must be a date (YYYY-MM-DD) or an ISO timestamp with Z or an offset, e.g. 2026-11-24T09:00:00Z',
  )
  .transform((text) => new Date(DAY.test(text) ? `${text}T00:00:00.000Z` : text));

/** GET /api/audit/export: the period; `to` left out, up to the moment of the export. */
export const periodExportQuerySchema = z.object({ from: when, to: when.optional() });

/** GET /api/audit/export/signing: which key signs the period export; null when none is set (no export then). */
export interface ExportSigningView {
  keyId: string | null;
}

import type { z } from 'zod';
import { productEventSchemas } from '../catalogue/events.js';
import { LICENSE_KEYS_CATEGORY, licenseKeyEventSchemas } from '../license-keys/events.js';
import { checkoutEventSchemas, orderEventSchemas } from '../orders/events.js';
import { receiptEventSchemas } from '../receipts/numbering.js';
import { REFUND_EMAILS_CATEGORY, refundEmailEventSchemas } from '../refund-emails/index.js';
import { RISK_CATEGORY, riskEventSchemas } from '../risk/events.js';
import { parseEventData } from './event-data.js';
import { streamCategory } from './port.js';

/** The schema of each event type's data (in its current shape), by the category of the stream it is recorded in. */
const schemasByCategory: ReadonlyMap<string, Readonly<Record<string, z.ZodType>>> = new Map<
  string,
  Readonly<Record<string, z.ZodType>>
>([
  ['product', productEventSchemas],
  ['checkout', checkoutEventSchemas],
  ['order', orderEventSchemas],
  [LICENSE_KEYS_CATEGORY, licenseKeyEventSchemas],
  ['receipts', receiptEventSchemas],
  [REFUND_EMAILS_CATEGORY, refundEmailEventSchemas],
  [RISK_CATEGORY, riskEventSchemas],
]);

/**
 * Throws when the event's data fails its type's schema. A type this code has no schema for (another category's, or
 * a test's) is not ours to judge: its readers ignore it.
 */
export function checkEventData(event: { streamId: string; type: string; data: unknown }): void {
  const schemas = schemasByCategory.get(streamCategory(event.streamId));
  const schema = schemas && Object.hasOwn(schemas, event.type) ? schemas[event.type] : undefined;
  if (schema) parseEventData(schema, event.data);
}

import { z } from 'zod';
import { parseEventData } from '../events/event-data.js';
import { recordedProductChangesSchema, recordedProductFieldsSchema } from './product.js';

export const productEventSchemas = {
  ProductCreated: z.object({
    productId: z.uuid(),
    fields: recordedProductFieldsSchema,
    createdAt: z.iso.datetime(),
  }),
  ProductUpdated: z.object({
    productId: z.uuid(),
    changes: recordedProductChangesSchema,
    updatedAt: z.iso.datetime(),
  }),
  ProductDeleted: z.object({ productId: z.uuid(), deletedAt: z.iso.datetime() }),
};

export type ProductEvent = {
  [K in keyof typeof productEventSchemas]: { type: K; data: z.infer<(typeof productEventSchemas)[K]> };
}[keyof typeof productEventSchemas];

export const productStream = (productId: string) => `product-${productId}`;

/** Validates a stored event's data at the adapter boundary; unknown types are not ours. */
export function parseProductEvent(type: string, data: unknown): ProductEvent | null {
  if (!(type in productEventSchemas)) return null;
  const schema = productEventSchemas[type as ProductEvent['type']];
  return { type, data: parseEventData(schema, data) } as ProductEvent;
}

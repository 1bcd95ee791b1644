import { z } from 'zod';
import { decimalAmount, normaliseAmount } from '../money/index.js';

const text = (max: number) =>
  z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

/** A product's editable fields, as admins send them (spec section 3 and the product form rules). */
export const productFieldsSchema = z.object({
  name: text(200),
  description: text(5000),
  imageUrl: text(2000),
  category: text(100),
  platform: text(100),
  regularPrice: decimalAmount.transform(normaliseAmount),
  salePrice: z
    .union([decimalAmount.transform(normaliseAmount), z.literal(''), z.null()])
    .optional()
    .transform((value) => (value ? value : null)),
  featured: z.boolean().default(false),
  inStock: z.boolean().default(true),
});
export type ProductFields = z.infer<typeof productFieldsSchema>;

/** Any subset of the fields, with no defaults applied to absent ones (PATCH bodies, ProductUpdated). */
export const productChangesObject = z
  .object({
    name: productFieldsSchema.shape.name,
    description: productFieldsSchema.shape.description,
    imageUrl: productFieldsSchema.shape.imageUrl,
    category: productFieldsSchema.shape.category,
    platform: productFieldsSchema.shape.platform,
    regularPrice: productFieldsSchema.shape.regularPrice,
    salePrice: productFieldsSchema.shape.salePrice,
    featured: z.boolean(),
    inStock: z.boolean(),
  })
  .partial();

export const productChangesSchema = productChangesObject.refine(
  (changes) => Object.keys(changes).length > 0,
  'at least one field must change',
);
export type ProductChanges = z.infer<typeof productChangesSchema>;

/** The product as the API returns it (spec section 3). */
export interface Product extends ProductFields {
  id: string;
}

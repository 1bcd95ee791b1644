import { z } from 'zod';
import { decimalAmount, normaliseAmount } from '../money/index.js';
import { storableText } from '../text/index.js';
import {
  DOWNLOAD_URL_MAX_LENGTH,
  downloadUrlProblem,
  INSTALLATION_NOTES_MAX_LENGTH,
} from './download-url.js';
import { KEY_FORMAT_MAX_LENGTH, keyFormatProblem } from './key-format.js';

/** An official download link as admins send it, stored as the URL's normal form; empty or null for none. */
const downloadUrl = z
  .union([
    storableText({ max: DOWNLOAD_URL_MAX_LENGTH }).check((context) => {
      const problem = downloadUrlProblem(context.value);
      if (problem) context.issues.push({ code: 'custom', input: context.value, message: problem });
    }),
    z.literal(''),
    z.null(),
  ])
  .transform((value) => (value ? new URL(value).href : null))
  .optional();

/** Short installation notes shown with the download link (several lines); empty or null for none. */
const installationNotes = z
  .union([storableText({ max: INSTALLATION_NOTES_MAX_LENGTH, multiline: true, min: 0 }), z.null()])
  .transform((value) => (value ? value : null))
  .optional();

/** The pattern its license keys must follow; empty or null for the default format. */
const keyFormat = z
  .union([
    z
      .string()
      .trim()
      .check((context) => {
        if (context.value === '') return;
        const problem = keyFormatProblem(context.value);
        if (problem) context.issues.push({ code: 'custom', input: context.value, message: problem });
      }),
    z.null(),
  ])
  .transform((value) => (value ? value : null))
  .optional();

/** Fields every product has besides its texts, the same in a command and in a recorded event. */
const otherFields = {
  regularPrice: decimalAmount.transform(normaliseAmount),
  salePrice: z
    .union([decimalAmount.transform(normaliseAmount), z.literal(''), z.null()])
    .optional()
    .transform((value: string | null | undefined) => (value ? value : null)),
  featured: z.boolean().default(false),
  inStock: z.boolean().default(true),
};

/**
 * A product's editable fields, as admins send them: every text storable.
 * The image URL is a text here; the API also checks it is an image on this site.
 */
export const productFieldsSchema = z.object({
  name: storableText({ max: 200 }),
  description: storableText({ max: 5000, multiline: true }),
  imageUrl: storableText({ max: 2000 }),
  category: storableText({ max: 100 }),
  platform: storableText({ max: 100 }),
  downloadUrl,
  installationNotes,
  keyFormat,
  ...otherFields,
});
export type ProductFields = z.infer<typeof productFieldsSchema>;

/** Any subset of `shape`'s fields, with no defaults applied to absent ones (PATCH bodies, ProductUpdated). */
const changesOf = (shape: typeof productFieldsSchema.shape | typeof recordedProductFieldsSchema.shape) =>
  z
    .object({
      name: shape.name,
      description: shape.description,
      imageUrl: shape.imageUrl,
      category: shape.category,
      platform: shape.platform,
      downloadUrl: shape.downloadUrl,
      installationNotes: shape.installationNotes,
      keyFormat: shape.keyFormat,
      regularPrice: shape.regularPrice,
      salePrice: shape.salePrice,
      featured: z.boolean(),
      inStock: z.boolean(),
    })
    .partial();

export const productChangesSchema = changesOf(productFieldsSchema.shape).refine(
  (changes) => Object.keys(changes).length > 0,
  'at least one field must change',
);
export type ProductChanges = z.infer<typeof productChangesSchema>;

/**
 * The fields as events recorded them: texts checked only for presence and length, as commands checked them before
 * the storable-text rule, so every event already stored still reads.
 */
const recordedText = (max: number) =>
  z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);
export const recordedProductFieldsSchema = z.object({
  name: recordedText(200),
  description: recordedText(5000),
  imageUrl: recordedText(2000),
  category: recordedText(100),
  platform: recordedText(100),
  // Absent from events recorded before products had downloads: none.
  downloadUrl: z.string().max(DOWNLOAD_URL_MAX_LENGTH).nullable().optional(),
  installationNotes: z.string().max(INSTALLATION_NOTES_MAX_LENGTH).nullable().optional(),
  // Absent from events recorded before products had key formats: the default format.
  keyFormat: z.string().max(KEY_FORMAT_MAX_LENGTH).nullable().optional(),
  ...otherFields,
});
export const recordedProductChangesSchema = changesOf(recordedProductFieldsSchema.shape);

/** The product as the API returns it, with its download (null for none). */
export interface Product extends ProductFields {
  id: string;
  downloadUrl: string | null;
  installationNotes: string | null;
  /** Null: the default format. */
  keyFormat: string | null;
}

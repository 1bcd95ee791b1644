// Product images uploaded by the back office.
import { storableText } from '@licensestore/domain/text';
import { z } from 'zod';

/** POST /api/objects/upload (empty body): a signed, short-lived URL to PUT one file to. */
export const uploadUrlSchema = z.object({ uploadURL: z.string().min(1) });
export type UploadUrlView = z.infer<typeof uploadUrlSchema>;

/** POST /api/objects/normalize: the uploaded file's URL, to be checked and kept. */
export const normalizeUploadRequestSchema = z.object({ imageURL: storableText({ max: 4000 }) });
export type NormalizeUploadRequest = z.input<typeof normalizeUploadRequestSchema>;

/** The path a product stores as its imageUrl (/objects/uploads/<id>). */
export const normalizedUploadSchema = z.object({ objectPath: z.string().min(1) });
export type NormalizedUploadView = z.infer<typeof normalizedUploadSchema>;

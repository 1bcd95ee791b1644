import {
  type NormalizeUploadRequest,
  normalizedUploadSchema,
  uploadUrlSchema,
} from '@licensestore/contract/uploads';
import { apiRequest } from '@/lib/api';

/** The descriptions a failed upload's toast ('Upload failed') gives. */
export const NO_UPLOAD_URL = 'No upload URL returned';
export const COULD_NOT_PROCESS = 'Could not process image';

/** POST /api/objects/upload (empty body): a signed, short-lived URL to PUT one file to. */
export async function requestUploadUrl(): Promise<string> {
  const answer = uploadUrlSchema.safeParse(await (await apiRequest('POST', '/api/objects/upload')).json());
  if (!answer.success) throw new Error(NO_UPLOAD_URL);
  return answer.data.uploadURL;
}

/** POST /api/objects/normalize: the path a product stores as its imageUrl (/objects/uploads/<id>). */
export async function normalizeUpload(imageURL: string): Promise<string> {
  const request: NormalizeUploadRequest = { imageURL };
  const answer = normalizedUploadSchema.safeParse(
    await (await apiRequest('POST', '/api/objects/normalize', request)).json(),
  );
  if (!answer.success) throw new Error(COULD_NOT_PROCESS);
  return answer.data.objectPath;
}

import { apiRequest } from '@/lib/api';

/** The descriptions a failed upload's toast ('Upload failed') gives. */
export const NO_UPLOAD_URL = 'No upload URL returned';
export const COULD_NOT_PROCESS = 'Could not process image';

/** POST /api/objects/upload (empty body): a signed, short-lived URL to PUT one file to. */
export async function requestUploadUrl(): Promise<string> {
  const response = await apiRequest('POST', '/api/objects/upload');
  const { uploadURL } = (await response.json()) as { uploadURL?: unknown };
  if (typeof uploadURL !== 'string' || uploadURL === '') throw new Error(NO_UPLOAD_URL);
  return uploadURL;
}

/** POST /api/objects/normalize: the path a product stores as its imageUrl (/objects/uploads/<id>). */
export async function normalizeUpload(imageURL: string): Promise<string> {
  const response = await apiRequest('POST', '/api/objects/normalize', { imageURL });
  const { objectPath } = (await response.json()) as { objectPath?: unknown };
  if (typeof objectPath !== 'string' || objectPath === '') throw new Error(COULD_NOT_PROCESS);
  return objectPath;
}

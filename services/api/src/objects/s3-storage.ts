import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { isUuid } from '../http/ids.js';
import { notAnImage, tooLarge } from './errors.js';
import { MAX_IMAGE_BYTES, SNIFF_BYTES, sniffImageType } from './image-types.js';
import type { ObjectStorage, StoredImage } from './storage.js';

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service (MinIO, R2, …); unset is AWS. Such services are addressed path-style. */
  endpoint?: string;
  /** Both or neither; neither uses the SDK's default chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

const KEY_PREFIX = 'uploads/';
const PLACEHOLDER_ID = '00000000-0000-0000-0000-000000000000';

const isMissing = (error: unknown) =>
  (error as { name?: string }).name === 'NoSuchKey' ||
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * A thin adapter over an S3 bucket: presigned PUT URLs, and reads through this app (so images stay same-origin
 * for the CSP). The browser's PUT never passes through the app, so the size and type are checked on read;
 * what fails is deleted. The bucket's CORS must allow PUT with Content-Type from the store's origin.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly #client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.#client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.endpoint !== undefined,
      credentials: settings.credentials,
    });
  }

  async createUploadUrl(objectId: string, expiresAt: Date): Promise<string> {
    const expiresIn = Math.max(1, Math.round((expiresAt.getTime() - Date.now()) / 1000));
    const command = new PutObjectCommand({ Bucket: this.settings.bucket, Key: `${KEY_PREFIX}${objectId}` });
    return getSignedUrl(this.#client, command, { expiresIn });
  }

  async objectIdOfUploadUrl(url: URL): Promise<string | null> {
    // Where this bucket's objects live is whatever the SDK signs for it (path- or virtual-host style).
    const sample = new URL(await this.createUploadUrl(PLACEHOLDER_ID, new Date(Date.now() + 60_000)));
    const prefix = sample.pathname.slice(0, -PLACEHOLDER_ID.length);
    if (url.origin !== sample.origin || !url.pathname.startsWith(prefix)) return null;
    const id = url.pathname.slice(prefix.length);
    return isUuid(id) ? id.toLowerCase() : null;
  }

  async read(objectId: string): Promise<StoredImage | null> {
    if (!isUuid(objectId)) return null;
    const Key = `${KEY_PREFIX}${objectId.toLowerCase()}`;
    const get = (Range?: string) =>
      this.#client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key, Range })).catch((error) => {
        if (isMissing(error)) return null;
        throw error;
      });
    // The leading bytes first (a ranged GET), so a refused object is never downloaded whole.
    const head = await get(`bytes=0-${SNIFF_BYTES - 1}`);
    if (!head?.Body) return null;
    const contentType = sniffImageType(await head.Body.transformToByteArray());
    const size = Number(head.ContentRange?.split('/')[1] ?? head.ContentLength ?? 0);
    if (size > MAX_IMAGE_BYTES || !contentType) {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key }));
      throw size > MAX_IMAGE_BYTES ? tooLarge(MAX_IMAGE_BYTES) : notAnImage();
    }
    const object = await get();
    if (!object?.Body) return null;
    return { body: object.Body as Readable, size, contentType, etag: object.ETag ?? `"${objectId}"` };
  }
}

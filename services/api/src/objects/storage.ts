import type { Readable } from 'node:stream';
import type { ImageType } from './image-types.js';

/** An uploaded image as it is served: its bytes and what the bytes say they are. */
export interface StoredImage {
  body: Readable;
  size: number;
  contentType: ImageType;
  /** Quoted, as the ETag header carries it; ids are never reused, so it never changes for an id. */
  etag: string;
}

/**
 * Where uploaded images live: local disk under DATA_DIR/uploads unless S3_BUCKET is
 * set. The browser PUTs a file straight to a signed, short-lived URL; the product then stores
 * /objects/uploads/<id>, which this app serves whichever storage holds the bytes.
 */
export interface ObjectStorage {
  /** A URL one file may be PUT to until `expiresAt`; `requestOrigin` is the origin the admin's request came to. */
  createUploadUrl(objectId: string, expiresAt: Date, requestOrigin: string): Promise<string>;
  /** The object an upload URL of this storage names (query string ignored), or null when it is not ours. */
  objectIdOfUploadUrl(url: URL, requestOrigin: string): Promise<string | null>;
  /**
   * The image stored under the id, or null when nothing is there. Storage that cannot check a PUT as it
   * arrives (S3) checks here: what is too large or not an image is removed and answered with 413 or 415.
   */
  read(objectId: string): Promise<StoredImage | null>;
}

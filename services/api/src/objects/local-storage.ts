import { randomUUID } from 'node:crypto';
import { link, mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { IllegalStateError, ValidationError } from '@licensestore/domain';
import { isUuid } from '../http/ids.js';
import { notAnImage, tooLarge } from './errors.js';
import { MAX_IMAGE_BYTES, SNIFF_BYTES, sniffImageType } from './image-types.js';
import type { ObjectStorage, StoredImage } from './storage.js';
import type { UploadSigner } from './upload-signature.js';

/** Where the app itself receives a local upload (routes.ts); the signature is in the query string. */
export const LOCAL_UPLOAD_PATH = '/api/objects/uploads/';

/**
 * Images on local disk, one file per object id (no extension: the type is sniffed from the bytes). A PUT is
 * checked as it streams in and written to a temporary file first, so a stored object is always a whole,
 * accepted image; the final name is created with link(), which fails if it exists: an id is written once.
 */
export class LocalObjectStorage implements ObjectStorage {
  constructor(
    private readonly dir: string,
    private readonly signer: UploadSigner,
    /** The app's origin as browsers reach it, given the origin the admin's request names. */
    private readonly origin: (requestOrigin: string) => string,
  ) {}

  async createUploadUrl(objectId: string, expiresAt: Date, requestOrigin: string): Promise<string> {
    const url = new URL(`${LOCAL_UPLOAD_PATH}${objectId}`, this.origin(requestOrigin));
    const { expires, signature } = this.signer.sign(objectId, expiresAt);
    url.searchParams.set('expires', expires);
    url.searchParams.set('signature', signature);
    return url.href;
  }

  async objectIdOfUploadUrl(url: URL, requestOrigin: string): Promise<string | null> {
    if (url.origin !== this.origin(requestOrigin) || !url.pathname.startsWith(LOCAL_UPLOAD_PATH)) return null;
    const id = url.pathname.slice(LOCAL_UPLOAD_PATH.length);
    return isUuid(id) ? id.toLowerCase() : null;
  }

  async read(objectId: string): Promise<StoredImage | null> {
    if (!isUuid(objectId)) return null;
    const path = join(this.dir, objectId.toLowerCase());
    const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!handle) return null;
    const { size } = await handle.stat();
    const head = Buffer.alloc(SNIFF_BYTES);
    await handle.read(head, 0, SNIFF_BYTES, 0);
    const contentType = sniffImageType(head);
    if (!contentType) {
      await handle.close();
      return null;
    }
    // The stream owns the handle from here and closes it when done or destroyed.
    const body = handle.createReadStream({ start: 0, autoClose: true });
    return { body, size, contentType, etag: `"${objectId.toLowerCase()}"` };
  }

  /** Stores one PUT body under the id: at most MAX_IMAGE_BYTES, an accepted image type by its leading bytes. */
  async receive(objectId: string, body: AsyncIterable<Buffer>): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const partial = join(this.dir, `.${objectId}.${randomUUID()}.part`);
    const file = await open(partial, 'wx', 0o640);
    try {
      let size = 0;
      let head = Buffer.alloc(0);
      for await (const chunk of body) {
        size += chunk.length;
        if (size > MAX_IMAGE_BYTES) throw tooLarge(MAX_IMAGE_BYTES);
        if (head.length < SNIFF_BYTES) {
          head = Buffer.concat([head, chunk]).subarray(0, SNIFF_BYTES);
          // Refuse a wrong type at once rather than after reading up to 10 MB of it.
          if (head.length === SNIFF_BYTES && !sniffImageType(head)) throw notAnImage();
        }
        await file.write(chunk);
      }
      if (size === 0) throw new ValidationError('The upload is empty');
      if (!sniffImageType(head)) throw notAnImage();
      await file.close();
      await link(partial, join(this.dir, objectId)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') throw new IllegalStateError('An image was already uploaded to this URL');
        throw error;
      });
    } finally {
      await file.close().catch(() => {});
      await rm(partial, { force: true });
    }
  }
}

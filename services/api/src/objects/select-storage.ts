import { resolve } from 'node:path';
import { type Config, ConfigError, publicUrl } from '@licensestore/platform/config';
import { isSiteOrigin } from '../http/same-origin.js';
import { LocalObjectStorage } from './local-storage.js';
import { S3ObjectStorage } from './s3-storage.js';
import type { ObjectStorage } from './storage.js';
import { UploadSigner } from './upload-signature.js';

export interface SelectedStorage {
  storage: ObjectStorage;
  /** Set when the app itself receives the uploads (no S3): its PUT route is mounted. */
  local: LocalObjectStorage | null;
  signer: UploadSigner;
}

/** S3 when S3_BUCKET is set, otherwise DATA_DIR/uploads with URLs the app signs itself. */
export function selectObjectStorage(config: Config): SelectedStorage {
  if (!config.SESSION_SECRET) throw new ConfigError(['SESSION_SECRET: required to sign upload URLs']);
  const signer = new UploadSigner(config.SESSION_SECRET);
  if (config.S3_BUCKET) {
    const storage = new S3ObjectStorage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      credentials:
        config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
          : undefined,
    });
    return { storage, local: null, signer };
  }
  const site = { publicUrl: publicUrl(config), local: config.PUBLIC_URL === undefined };
  const ownOrigin = new URL(site.publicUrl).origin;
  const isOwn = isSiteOrigin(site);
  // Upload URLs point at PUBLIC_URL; a local run without it answers on whichever loopback name and port the
  // browser used, and never on a host the request merely claims.
  const local = new LocalObjectStorage(resolve(config.DATA_DIR, 'uploads'), signer, (requestOrigin) =>
    isOwn(requestOrigin) ? requestOrigin : ownOrigin,
  );
  return { storage: local, local, signer };
}

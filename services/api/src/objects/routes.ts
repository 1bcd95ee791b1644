import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import {
  type NormalizedUploadView,
  normalizeUploadRequestSchema,
  type UploadUrlView,
} from '@licensestore/contract/uploads';
import { NotFoundError, ValidationError } from '@licensestore/domain';
import type { Config } from '@licensestore/platform/config';
import express, { type Request, Router } from 'express';
import { requireAdmin } from '../auth/guards.js';
import { isUuid } from '../http/ids.js';
import { parseRequest } from '../http/validation.js';
import { tooLarge } from './errors.js';
import { MAX_IMAGE_BYTES } from './image-types.js';
import { selectObjectStorage } from './select-storage.js';
import type { ObjectStorage } from './storage.js';

/** Long enough to pick a file and upload 10 MB on a slow line, short enough that a leaked URL soon dies. */
const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;
const YEAR_SECONDS = 365 * 24 * 60 * 60;

const requestOrigin = (req: Request) => `${req.protocol}://${req.get('host') ?? ''}`;

/** The path a product stores as its imageUrl (the upload's objectPath). */
export const objectPath = (objectId: string) => `/objects/uploads/${objectId}`;

export interface ObjectRoutes {
  /** Mounted under /api before its JSON parser: the local PUT streams the raw body. */
  api: Router;
  /** GET /objects/uploads/:id, at the site's root. */
  files: Router;
}

/** Image upload, one image of at most 10 MB: signed upload URLs, normalize to an object path, and serving. */
export function objectRoutes(config: Config): ObjectRoutes {
  const { storage, local, signer } = selectObjectStorage(config);
  const api = Router();

  api.post('/objects/upload', requireAdmin, async (req, res) => {
    const expiresAt = new Date(Date.now() + UPLOAD_URL_TTL_MS);
    const answer: UploadUrlView = {
      uploadURL: await storage.createUploadUrl(randomUUID(), expiresAt, requestOrigin(req)),
    };
    res.json(answer);
  });

  api.post('/objects/normalize', requireAdmin, express.json({ limit: '10kb' }), async (req, res) => {
    const { imageURL } = parseRequest(normalizeUploadRequestSchema, req.body);
    const url = URL.canParse(imageURL) ? new URL(imageURL) : null;
    const objectId = url && (await storage.objectIdOfUploadUrl(url, requestOrigin(req)));
    if (!objectId) throw new ValidationError('imageURL: is not an upload URL of this store');
    const image = await storage.read(objectId);
    if (!image) throw new NotFoundError('Nothing was uploaded to this URL');
    image.body.destroy();
    res.json({ objectPath: objectPath(objectId) } satisfies NormalizedUploadView);
  });

  if (local) {
    // The signature in the query string is the permission: the admin's POST /api/objects/upload handed it out.
    api.put('/objects/uploads/:id', async (req, res) => {
      const { id } = req.params;
      if (!isUuid(id)) throw new NotFoundError('Not found');
      try {
        signer.verify(id, req.query.expires, req.query.signature);
        if (Number(req.get('content-length') ?? 0) > MAX_IMAGE_BYTES) throw tooLarge(MAX_IMAGE_BYTES);
        await local.receive(id, req);
      } catch (error) {
        // The rest of a refused body is never read; the connection cannot carry another request after it.
        res.setHeader('Connection', 'close');
        throw error;
      }
      res.status(200).end();
    });
  }

  return { api, files: imageFiles(storage) };
}

/** Uploaded images, served as what their bytes are; an id is written once, so a browser may keep it for good. */
function imageFiles(storage: ObjectStorage): Router {
  const router = Router();
  router.get('/objects/uploads/:id', async (req, res) => {
    const image = await storage.read(req.params.id);
    if (!image) throw new NotFoundError('Image not found');
    res.setHeader('Content-Type', image.contentType);
    res.setHeader('Content-Length', String(image.size));
    res.setHeader('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`);
    res.setHeader('ETag', image.etag);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.fresh) {
      image.body.destroy();
      res.removeHeader('Content-Length');
      res.status(304).end();
      return;
    }
    if (req.method === 'HEAD') {
      image.body.destroy();
      res.end();
      return;
    }
    await pipeline(image.body, res);
  });
  return router;
}

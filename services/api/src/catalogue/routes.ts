import {
  NotFoundError,
  type Product,
  type ProductCommand,
  type ProductFields,
  productChangesSchema,
  productDecider,
  productFieldsSchema,
  productStream,
} from '@licensestore/domain';
import { handleCommand, loadStream } from '@licensestore/domain/commands';
import type { EventStore } from '@licensestore/domain/events';
import { type Config, publicUrl } from '@licensestore/platform/config';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { timeOrderedId } from '@licensestore/platform/ids';
import type { Logger } from '@licensestore/platform/logging';
import { type Request, Router } from 'express';
import { adminCommandMetadata, requireAdmin, requireBackOffice } from '../auth/guards.js';
import { type CachedAnswer, cachedJson, sendCached } from '../http/cached-answer.js';
import { isUuid } from '../http/ids.js';
import { awaitReadModel } from '../http/read-your-writes.js';
import { ifMatchRevision, setRevisionTag } from '../http/revision-tags.js';
import { parseRequest } from '../http/validation.js';
import { CatalogueCache } from './cache.js';
import { siteImagePath } from './image-url.js';
import { findProduct, listFeaturedProducts, listProducts } from './queries.js';

const productNotFound = () => new NotFoundError('Product not found');

const PRODUCT_PATH = /^\/products\/([^/]+)$/;

/** A product as the API answers it, from the fields its stream holds. */
const productView = (id: string, fields: ProductFields): Product => ({
  id,
  ...fields,
  downloadUrl: fields.downloadUrl ?? null,
  installationNotes: fields.installationNotes ?? null,
  keyFormat: fields.keyFormat ?? null,
});

const productId = (req: Request) => {
  const id = req.params.id;
  if (!isUuid(id)) throw productNotFound();
  return id.toLowerCase();
};

export interface CatalogueRoutesDeps {
  /** Image URLs are resolved against the site's origin (PUBLIC_URL). */
  config: Pick<Config, 'PUBLIC_URL' | 'PORT'>;
  database: DatabaseHandle;
  eventStore: EventStore;
  logger: Logger;
  /** Aborted when the server begins to shut down: the cache hands its LISTEN connection back. */
  closing?: AbortSignal;
}

/**
 * Every storefront reads these: revalidated on each use (no-cache) against a strong ETag, so an admin's change shows
 * on the next request and an unchanged catalogue costs a 304. Served from memory (CatalogueCache).
 */
const CATALOGUE_CACHE_CONTROL = 'no-cache';

/**
 * `reads`: the storefront's public reads, which need no session, no body parser and nothing else the API router
 * runs first, so the app mounts them ahead of it. `writes`: the admin's commands, behind the session.
 */
export function catalogueRoutes({ config, database, eventStore, logger, closing }: CatalogueRoutesDeps): {
  reads: Router;
  writes: Router;
  /** The body a public read at `path` (under /api) answers, parsed, or null when it answers 404. */
  read: (path: string) => Promise<unknown>;
  /**
   * What `load` makes (a page drawn from the catalogue), kept under `key` until the catalogue next changes; null is
   * not kept.
   */
  keep: (
    key: string,
    load: () => Promise<CachedAnswer | null>,
  ) => Promise<CachedAnswer | null> | CachedAnswer;
} {
  const reads = Router();
  const writes = Router();
  const { db } = database;
  const cache = new CatalogueCache(database.pool, logger, closing);
  const siteOrigin = new URL(publicUrl(config)).origin;

  /**
   * Runs a product command as the signed-in admin, on the revision its If-Match names if it has one, and answers once
   * the read model has caught up with it.
   */
  const execute = async (req: Request, command: ProductCommand): Promise<Product | null> => {
    const outcome = await handleCommand(
      eventStore,
      productStream(command.productId),
      productDecider,
      command,
      adminCommandMetadata(req),
      { expectedRevision: ifMatchRevision(req) },
    );
    if (outcome.appended) {
      await awaitReadModel(database.pool, outcome.appended.position, ['products'], logger);
      // This instance's own notification may still be on its way: the caller's next read must see the change.
      cache.invalidate();
    }
    return outcome.state.status === 'active' ? productView(command.productId, outcome.state.fields) : null;
  };

  /** The answer of a public read by its path under /api (as it is kept: JSON), or null for nothing to answer. */
  const answerAt = (path: string): Promise<CachedAnswer | null> | CachedAnswer | null => {
    const found = publicRead(path);
    if (!found) return null;
    const [key, load] = found;
    // From memory without waiting when it is there (nearly always), else once loaded.
    return (
      cache.kept(key) ??
      cache.get(key, async () => {
        const value = await load();
        return value === null ? null : cachedJson(value);
      })
    );
  };

  /** The public reads by path: the list, the featured list, one product by id (an unknown one is not kept). */
  const publicRead = (path: string): [key: string, load: () => Promise<object | null>] | null => {
    if (path === '/products') return ['products', () => listProducts(db)];
    if (path === '/products/featured') return ['featured', () => listFeaturedProducts(db)];
    const id = PRODUCT_PATH.exec(path)?.[1];
    if (id === undefined || !isUuid(id)) return null;
    return [`product:${id.toLowerCase()}`, () => findProduct(db, id.toLowerCase())];
  };

  reads.get(['/products', '/products/featured', '/products/:id'], async (req, res) => {
    const answer = await answerAt(req.path);
    if (!answer) throw productNotFound();
    sendCached(req, res, answer, CATALOGUE_CACHE_CONTROL);
  });

  // What the edit form starts from: the product as its stream holds it and the revision that is (the ETag its save
  // sends back as If-Match). From the stream, not the read model, which may not have caught up: a tag newer than
  // the fields shown would let a save overwrite changes nobody saw. A product's stream is a handful of events.
  writes.get('/admin/products/:id', requireBackOffice, async (req, res) => {
    const id = productId(req);
    const { state, revision } = await loadStream(eventStore, productStream(id), productDecider);
    if (state.status !== 'active' || revision === 'no_stream') throw productNotFound();
    setRevisionTag(res, revision);
    res.set('Cache-Control', 'no-store').json(productView(id, state.fields));
  });

  writes.post('/products', requireAdmin, async (req, res) => {
    const parsed = parseRequest(productFieldsSchema, req.body);
    const fields = { ...parsed, imageUrl: siteImagePath(parsed.imageUrl, siteOrigin) };
    const id = timeOrderedId();
    const product = await execute(req, {
      type: 'CreateProduct',
      productId: id,
      fields,
      now: new Date().toISOString(),
    });
    res.status(201).json(product);
  });

  writes.patch('/products/:id', requireAdmin, async (req, res) => {
    const id = productId(req);
    const changes = parseRequest(productChangesSchema, req.body);
    if (changes.imageUrl !== undefined) changes.imageUrl = siteImagePath(changes.imageUrl, siteOrigin);
    const product = await execute(req, {
      type: 'UpdateProduct',
      productId: id,
      changes,
      now: new Date().toISOString(),
    });
    res.json(product);
  });

  writes.delete('/products/:id', requireAdmin, async (req, res) => {
    const id = productId(req);
    await execute(req, { type: 'DeleteProduct', productId: id, now: new Date().toISOString() });
    res.status(204).end();
  });

  return {
    reads,
    writes,
    read: async (path) => {
      const answer = await answerAt(path);
      return answer === null ? null : JSON.parse(answer.body.toString('utf8'));
    },
    keep: (key, load) => cache.kept(key) ?? cache.get(key, load),
  };
}

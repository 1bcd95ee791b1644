import { randomUUID } from 'node:crypto';
import {
  NotFoundError,
  type Product,
  type ProductCommand,
  productChangesSchema,
  productDecider,
  productFieldsSchema,
  productStream,
  ValidationError,
} from '@licensestore/shared';
import { handleCommand } from '@licensestore/shared/commands';
import type { DatabaseHandle } from '@licensestore/shared/db';
import type { EventStore } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import { type Request, Router } from 'express';
import { adminCommandMetadata, requireAdmin } from '../auth/guards.js';
import { isUuid } from '../http/ids.js';
import { awaitReadModel } from '../http/read-your-writes.js';
import { parseRequest } from '../http/validation.js';
import { findProduct, listFeaturedProducts, listProducts } from './queries.js';

const productNotFound = () => new NotFoundError('Product not found');

const productId = (req: Request) => {
  const id = req.params.id;
  if (!isUuid(id)) throw productNotFound();
  return id.toLowerCase();
};

export interface CatalogueRoutesDeps {
  database: DatabaseHandle;
  eventStore: EventStore;
  logger: Logger;
}

/**
 * Product images are paths on this site (demo art, uploads) or https URLs: anything else (javascript:, data:,
 * protocol-relative //host) is refused at the door. Checked on commands only, so events already stored still read.
 */
function checkImageUrl(imageUrl: string): void {
  const onThisSite = imageUrl.startsWith('/') && !imageUrl.startsWith('//');
  if (!onThisSite && !/^https:\/\/[^/\s]+/i.test(imageUrl)) {
    throw new ValidationError('imageUrl: must be a path on this site (/…) or an https:// URL');
  }
}

export function catalogueRoutes({ database, eventStore, logger }: CatalogueRoutesDeps): Router {
  const router = Router();
  const { db } = database;

  /** Runs a product command as the signed-in admin and answers once the read model has caught up with it. */
  const execute = async (req: Request, command: ProductCommand): Promise<Product | null> => {
    const outcome = await handleCommand(
      eventStore,
      productStream(command.productId),
      productDecider,
      command,
      adminCommandMetadata(req),
    );
    if (outcome.appended) {
      await awaitReadModel(database.pool, outcome.appended.position, ['products'], logger);
    }
    return outcome.state.status === 'active' ? { id: command.productId, ...outcome.state.fields } : null;
  };

  router.get('/products', async (_req, res) => {
    res.json(await listProducts(db));
  });

  router.get('/products/featured', async (_req, res) => {
    res.json(await listFeaturedProducts(db));
  });

  router.get('/products/:id', async (req, res) => {
    const product = await findProduct(db, productId(req));
    if (!product) throw productNotFound();
    res.json(product);
  });

  router.post('/products', requireAdmin, async (req, res) => {
    const fields = parseRequest(productFieldsSchema, req.body);
    checkImageUrl(fields.imageUrl);
    const id = randomUUID();
    const product = await execute(req, {
      type: 'CreateProduct',
      productId: id,
      fields,
      now: new Date().toISOString(),
    });
    res.status(201).json(product);
  });

  router.patch('/products/:id', requireAdmin, async (req, res) => {
    const id = productId(req);
    const changes = parseRequest(productChangesSchema, req.body);
    if (changes.imageUrl !== undefined) checkImageUrl(changes.imageUrl);
    const product = await execute(req, {
      type: 'UpdateProduct',
      productId: id,
      changes,
      now: new Date().toISOString(),
    });
    res.json(product);
  });

  router.delete('/products/:id', requireAdmin, async (req, res) => {
    const id = productId(req);
    await execute(req, { type: 'DeleteProduct', productId: id, now: new Date().toISOString() });
    res.status(204).end();
  });

  return router;
}

import {
  addLicenseKeyRequestSchema,
  type ImportedKeysView,
  importLicenseKeysRequestSchema,
  type KeyRevealView,
  keyListFiltersSchema,
  type LicenseKeyView,
  type RefusedImportView,
  type RefusedLine,
} from '@licensestore/contract/license-keys';
import {
  AppError,
  DuplicateLicenseKeyError,
  keyStatus,
  matchesKeyFormat,
  NotFoundError,
  ValidationError,
} from '@licensestore/domain';
import express, { type Request, type Response, Router } from 'express';
import { requireAdmin, requireBackOffice, signedInAdmin } from '../auth/guards.js';
import { isUuid } from '../http/ids.js';
import { parsePageQuery } from '../http/paging.js';
import { parseRequest } from '../http/validation.js';
import type { KeyCustody } from '../orders/custody.js';
import { keyHistory } from './history.js';
import { type InventoryDeps, licenseKeyInventory } from './inventory.js';
import { keyListKeyset, listKeyPage } from './key-list.js';
import {
  importRefusedSentence,
  importSummary,
  KEY_ALREADY_STORED,
  MAX_IMPORT_KEYS,
  maskLicenseKey,
  notInFormat,
  parseKeyImport,
  readLicenseKey,
  sameKeyAs,
} from './key-text.js';
import {
  findKeyToReveal,
  findLicenseKeyProduct,
  listLicenseKeys,
  listStock,
  listStockMismatches,
} from './queries.js';
import { keyRevealer, masked, revealFor } from './reveal.js';

const IMPORT_BODY_LIMIT = '1mb';

const licenseKeyNotFound = () => new NotFoundError('License key not found');

/** Keys in clear: no cache anywhere keeps them. */
const privateJson = (res: Response, status: number, body: unknown) => {
  res.set('Cache-Control', 'no-store').status(status).json(body);
};

export interface LicenseKeyRoutesDeps extends InventoryDeps {
  /** Records every showing of a key in clear. */
  custody: KeyCustody;
}

/**
 * The license-key inventory: list and stock for the back office; add one, remove one and open one in clear for
 * admins.
 */
export function licenseKeyRoutes(deps: LicenseKeyRoutesDeps): Router {
  const router = Router();
  const { database, keyVault, logger, lowStockThreshold, custody } = deps;
  const inventory = licenseKeyInventory(deps);
  const reveal = keyRevealer(keyVault, logger);

  router.get('/license-keys', requireBackOffice, async (req, res) => {
    const keys = await listLicenseKeys(database.db);
    const revealForCaller = revealFor(req, reveal);
    const maskedKey = masked(reveal);
    const views: LicenseKeyView[] = keys.map(({ sealedKey, ...key }) => ({
      ...key,
      key: (key.assigned ? maskedKey : revealForCaller)(sealedKey, { keyId: key.id }),
    }));
    privateJson(res, 200, views);
  });

  // The back office's list: a page at a time, filtered on the server, every key masked for every reader.
  router.get('/admin/license-keys', requireBackOffice, async (req, res) => {
    const page = parsePageQuery(keyListKeyset, req.query);
    const filters = parseRequest(keyListFiltersSchema, req.query);
    privateJson(res, 200, await listKeyPage(database.db, filters, page, { reveal, vault: keyVault }));
  });

  // A key's custody, for admins and auditors alike: the key is masked for both, as the page is evidence of where
  // the key went, not a way to take it.
  router.get('/license-keys/:keyId/history', requireBackOffice, async (req, res) => {
    const keyId = req.params.keyId;
    if (!isUuid(keyId)) throw licenseKeyNotFound();
    const history = await keyHistory(database.db, keyId.toLowerCase(), reveal);
    if (!history) throw licenseKeyNotFound();
    privateJson(res, 200, history);
  });

  // An admin opens one key on purpose (the back office's lists show every key masked), recorded before it is
  // answered: a key an order holds on that order's custody stream (once an hour per admin), as its order page does;
  // a stock key on its product's inventory stream.
  router.post('/license-keys/:keyId/reveal', requireAdmin, async (req, res) => {
    const keyId = req.params.keyId;
    if (!isUuid(keyId)) throw licenseKeyNotFound();
    const id = keyId.toLowerCase();
    const key = await findKeyToReveal(database.db, id);
    if (!key) throw licenseKeyNotFound();
    const licenseKey = reveal(key.sealedKey, { keyId: id });
    if (licenseKey === null) throw new AppError(500, 'The license key could not be read');
    const adminId = signedInAdmin(req);
    if (key.orderId) {
      await custody.record(req, {
        orderId: key.orderId,
        keyIds: [id],
        channel: 'admin-reveal',
        viewer: { type: 'admin', id: adminId },
      });
    } else await custody.recordStock(req, { productId: key.productId, keyId: id, adminId });
    privateJson(res, 200, { keyId: id, licenseKey } satisfies KeyRevealView);
  });

  router.get('/license-keys/stock', requireBackOffice, async (_req, res) => {
    privateJson(res, 200, await listStock(database.db, lowStockThreshold));
  });

  // Products the store shows in stock with no key to deliver, or out of stock while keys wait to be sold.
  router.get('/admin/stock-mismatches', requireBackOffice, async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await listStockMismatches(database.db));
  });

  router.post('/license-keys', requireAdmin, async (req, res) => {
    const body = parseRequest(addLicenseKeyRequestSchema, req.body);
    if (!body.productId?.trim() || !body.key?.trim()) {
      throw new ValidationError('Product and license key are both required');
    }
    const read = readLicenseKey(body.key);
    if (read && 'reason' in read) throw new ValidationError(read.reason);
    const key = body.key.trim();
    const product = await inventory.productTakingKeys(body.productId.trim());
    if (!matchesKeyFormat(key, product.keyFormat)) {
      throw new ValidationError(`This is not a key in this product's format ${product.keyFormat}`);
    }
    const { keyIds, duplicates, state, addedAt } = await inventory.add(req, product.id, [
      { key, fingerprint: keyVault.fingerprint(key) },
    ]);
    const keyId = keyIds[0] as string;
    if (duplicates.size > 0) throw new DuplicateLicenseKeyError([keyId]);
    const added = state && keyStatus(state, keyId);
    const view: LicenseKeyView = {
      id: keyId,
      productId: product.id,
      productName: product.name,
      key,
      assigned: added?.status === 'assigned',
      orderId: added && 'orderId' in added ? added.orderId : null,
      createdAt: addedAt,
    };
    privateJson(res, 201, view);
  });

  router.delete('/license-keys/:id', requireAdmin, async (req, res) => {
    const id = req.params.id;
    if (!isUuid(id)) throw licenseKeyNotFound();
    const keyId = id.toLowerCase();
    const productId = await findLicenseKeyProduct(database.db, keyId);
    if (!productId) throw licenseKeyNotFound();
    await inventory.remove(req, productId, keyId);
    res.status(204).end();
  });

  return router;
}

/** `{productId, keys}` as JSON, or a CSV/TXT file as sent with `?productId=`. */
function importRequest(req: Request): { productId?: string; text?: string } {
  if (typeof req.body === 'string') {
    const productId = req.query.productId;
    return { productId: typeof productId === 'string' ? productId : undefined, text: req.body };
  }
  if (req.is('application/json')) {
    const body = parseRequest(importLicenseKeysRequestSchema, req.body);
    return { productId: body.productId, text: body.keys };
  }
  throw new AppError(
    415,
    'Send the keys as JSON {productId, keys}, or as a text/csv or text/plain body with ?productId=',
  );
}

/**
 * Bulk import for one product: every line must be a key in the product's format, or nothing is stored (400); keys
 * the stock already holds (or the file holds twice) are skipped and reported with their lines, the rest added in
 * as few commands as the size allows. It parses its own body, up to 1 MB, so it is mounted before the API's
 * 100 kB JSON parser.
 */
export function licenseKeyImportRoutes(deps: InventoryDeps): Router {
  const router = Router();
  const inventory = licenseKeyInventory(deps);

  router.post(
    '/license-keys/import',
    requireAdmin,
    express.json({ limit: IMPORT_BODY_LIMIT }),
    express.text({ type: ['text/csv', 'text/plain'], limit: IMPORT_BODY_LIMIT }),
    async (req, res) => {
      const { productId, text } = importRequest(req);
      if (!productId?.trim() || !text?.trim()) {
        throw new ValidationError('Product and license keys are both required');
      }
      const product = await inventory.productTakingKeys(productId.trim());
      const parsed = parseKeyImport(text);
      const lines = parsed.keys.length + parsed.refused.length;
      if (lines > MAX_IMPORT_KEYS) {
        throw new ValidationError(
          `An import takes at most ${MAX_IMPORT_KEYS.toLocaleString('en-US')} keys, not ${lines.toLocaleString('en-US')}: split the file`,
        );
      }
      if (lines === 0) throw new ValidationError('No license keys found: put one key per line');

      // Checked before anything is appended: a file with one line that is not a key stores nothing.
      const misfits: RefusedLine[] = [
        ...parsed.refused,
        ...parsed.keys
          .filter(({ key }) => !matchesKeyFormat(key, product.keyFormat))
          .map(({ line, key }) => ({
            line,
            key: maskLicenseKey(key),
            reason: notInFormat(product.keyFormat),
          })),
      ].sort((a, b) => a.line - b.line);
      if (misfits.length > 0) {
        const lineNumbers = misfits.map(({ line }) => line);
        privateJson(res, 400, {
          error: importRefusedSentence(lineNumbers, product.keyFormat),
          added: 0,
          refused: misfits,
        } satisfies RefusedImportView);
        return;
      }

      const skipped: RefusedLine[] = [];
      const firstLineOf = new Map<string, number>();
      const unique: Array<{ line: number; key: string; fingerprint: string }> = [];
      for (const { line, key } of parsed.keys) {
        const fingerprint = deps.keyVault.fingerprint(key);
        const first = firstLineOf.get(fingerprint);
        if (first === undefined) {
          firstLineOf.set(fingerprint, line);
          unique.push({ line, key, fingerprint });
        } else skipped.push({ line, key: maskLicenseKey(key), reason: sameKeyAs(first) });
      }
      const repeated = skipped.length;
      const { duplicates } = await inventory.add(req, product.id, unique);
      for (const index of duplicates) {
        const { line, key } = unique[index] as (typeof unique)[number];
        skipped.push({ line, key: maskLicenseKey(key), reason: KEY_ALREADY_STORED });
      }
      skipped.sort((a, b) => a.line - b.line);

      // Keys already held are valid keys: skipping them is an answer, never a refusal.
      const counts = { added: unique.length - duplicates.size, alreadyInStock: duplicates.size, repeated };
      const result: ImportedKeysView = {
        added: counts.added,
        alreadyInStock: counts.alreadyInStock,
        skipped,
        summary: importSummary(counts),
      };
      privateJson(res, 200, result);
    },
  );

  return router;
}

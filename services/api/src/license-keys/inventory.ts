import { randomUUID } from 'node:crypto';
import {
  AppError,
  DuplicateLicenseKeyError,
  type InventoryState,
  inventoryDecider,
  keyFormatOf,
  type LicenseKeyCommand,
  licenseKeysStream,
  type NewLicenseKey,
  NotFoundError,
  productDecider,
  productStream,
} from '@licensestore/domain';
import { handleCommand, loadStream } from '@licensestore/domain/commands';
import type { EventStore, Position } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { AppendTooLargeError } from '@licensestore/platform/eventstore';
import type { KeyVault } from '@licensestore/platform/key-vault';
import type { Logger } from '@licensestore/platform/logging';
import type { Request } from 'express';
import { adminCommandMetadata } from '../auth/guards.js';
import { isUuid } from '../http/ids.js';
import { awaitReadModel } from '../http/read-your-writes.js';
import { storedFingerprints } from './queries.js';

const READ_MODEL = 'license-keys';

export interface InventoryDeps {
  database: DatabaseHandle;
  eventStore: EventStore;
  logger: Logger;
  keyVault: KeyVault;
  lowStockThreshold: number;
}

/** A key on its way in: what the admin typed, and its fingerprint. */
export interface KeyToAdd {
  key: string;
  fingerprint: string;
}

export interface AddedKeys {
  /** Ids given to the keys, in the order of the input. */
  keyIds: string[];
  /** Indexes (into the input) of keys refused because the inventory already holds them. */
  duplicates: Set<number>;
  /** The product's inventory after the last command (a new key may be assigned to a waiting order at once); null when nothing was added. */
  state: InventoryState | null;
  addedAt: string;
}

/** A product keys can be added to: its name (null once deleted) and the format its keys must have. */
export interface ProductTakingKeys {
  id: string;
  name: string | null;
  keyFormat: string;
}

const productNotFound = () => new NotFoundError('Product not found');

/** The admin's commands on a product's key inventory, answered once the `license-keys` read model has them. */
export function licenseKeyInventory({
  database,
  eventStore,
  logger,
  keyVault,
  lowStockThreshold,
}: InventoryDeps) {
  const run = (req: Request, command: LicenseKeyCommand) =>
    handleCommand(
      eventStore,
      licenseKeysStream(command.productId),
      inventoryDecider,
      command,
      adminCommandMetadata(req),
    );

  const caughtUp = async (position: Position | null) => {
    if (position) await awaitReadModel(database.pool, position, [READ_MODEL], logger);
  };

  return {
    /**
     * The product's name and the format its keys must have. Keys go to a product that exists and is still sold, or
     * to a deleted one while paid orders still wait for its keys (deleting a product must not strand them).
     */
    async productTakingKeys(productId: unknown): Promise<ProductTakingKeys> {
      if (!isUuid(productId)) throw productNotFound();
      const id = productId.toLowerCase();
      const { state } = await loadStream(eventStore, productStream(id), productDecider);
      if (state.status === 'absent') throw productNotFound();
      if (state.status === 'active') {
        return { id, name: state.fields.name, keyFormat: keyFormatOf(state.fields) };
      }
      const inventory = await loadStream(eventStore, licenseKeysStream(id), inventoryDecider);
      if (inventory.state.waiting.size === 0) {
        throw new AppError(422, 'This product has been deleted: license keys cannot be added to it');
      }
      return { id, name: null, keyFormat: keyFormatOf(state) };
    },

    /**
     * Adds the keys, sealed, refusing those any product's inventory already holds (the read table first, then the
     * product's own stream, which also catches a key added a moment ago). The input must hold no fingerprint twice.
     */
    async add(req: Request, productId: string, keys: readonly KeyToAdd[]): Promise<AddedKeys> {
      const stored = await storedFingerprints(
        database.db,
        keys.map((key) => key.fingerprint),
      );
      // A refunded unit names its key by the id's first 8 characters: time-ordered ids would share them.
      const keyIds = keys.map(() => randomUUID());
      const duplicates = new Set<number>();
      const candidates: Array<NewLicenseKey & { index: number }> = [];
      keys.forEach((key, index) => {
        if (stored.has(key.fingerprint)) duplicates.add(index);
        else
          candidates.push({
            index,
            keyId: keyIds[index] as string,
            key: keyVault.seal(key.key),
            fingerprint: key.fingerprint,
            tailHash: keyVault.tailHash(key.key),
          });
      });

      let state: InventoryState | null = null;
      let position: Position | null = null;
      const addedAt = new Date().toISOString();
      const addChunk = async (slice: typeof candidates) => {
        let chunk = slice;
        for (;;) {
          try {
            return await run(req, {
              type: 'AddLicenseKeys',
              productId,
              keys: chunk.map(({ index: _index, ...key }) => key),
              lowStockThreshold,
              now: addedAt,
            });
          } catch (error) {
            // Added since the read table was looked at: refuse those, keep the rest.
            if (!(error instanceof DuplicateLicenseKeyError)) throw error;
            const clashing = new Set(error.duplicates);
            const rest = chunk.filter((candidate) => !clashing.has(candidate.keyId));
            if (rest.length === chunk.length) throw error;
            for (const candidate of chunk) if (clashing.has(candidate.keyId)) duplicates.add(candidate.index);
            if (rest.length === 0) return null;
            chunk = rest;
          }
        }
      };
      // As few commands as the store's append limit allows: a command whose events would not fit in one append
      // is made again from half its keys, and that size carries on. Each command lands on its own, so a failure
      // midway leaves the keys before it stored; sending the same file again adds the rest and names those lines
      // as already in the inventory.
      let keysPerCommand = candidates.length;
      for (let start = 0; start < candidates.length; ) {
        const chunk = candidates.slice(start, start + keysPerCommand);
        try {
          const outcome = await addChunk(chunk);
          if (outcome) ({ state, position } = outcome);
          start += chunk.length;
        } catch (error) {
          if (!(error instanceof AppendTooLargeError) || chunk.length === 1) throw error;
          keysPerCommand = Math.ceil(chunk.length / 2);
        }
      }
      await caughtUp(position);
      return { keyIds, duplicates, state, addedAt };
    },

    async remove(req: Request, productId: string, keyId: string): Promise<void> {
      const outcome = await run(req, {
        type: 'RemoveLicenseKey',
        productId,
        keyId,
        lowStockThreshold,
        now: new Date().toISOString(),
      });
      await caughtUp(outcome.appended?.position ?? null);
    },
  };
}

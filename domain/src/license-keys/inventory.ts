import { AppError, IllegalStateError, NotFoundError } from '../errors/index.js';
import { orderNumber } from '../orders/order-number.js';
import type { AssignedKey, LicenseKeyEvent } from './events.js';
import {
  evolveInventory,
  type InventoryState,
  keyStatus,
  keysHeld,
  lineKey,
  lineRecord,
  shelfOrder,
} from './inventory-state.js';

/** A key as the admin adds it: already sealed and fingerprinted by the caller (key-vault), with a fresh id. */
export interface NewLicenseKey {
  keyId: string;
  key: string;
  fingerprint: string;
  /** Of the key's last characters, for the back office's search (key-vault `tailHash`). */
  tailHash?: string;
}

export type LicenseKeyCommand =
  | {
      type: 'AddLicenseKeys';
      productId: string;
      keys: NewLicenseKey[];
      lowStockThreshold: number;
      now: string;
    }
  | { type: 'RemoveLicenseKey'; productId: string; keyId: string; lowStockThreshold: number; now: string }
  | {
      type: 'RequestLicenseKeys';
      productId: string;
      orderId: string;
      lineId: string;
      /** How many keys the line wants in all (its units still the customer's). */
      quantity: number;
      lowStockThreshold: number;
      now: string;
    }
  | {
      type: 'ReleaseLicenseKeys';
      productId: string;
      orderId: string;
      lineId: string;
      /** The line's keys to take back: revoked for good when they left the store, else returned to stock. */
      keys: Array<{ keyId: string; leftStore: boolean }>;
      /** How many keys the line still wants in all (its units not refunded; 0 for a cancelled order). */
      wanted: number;
      lowStockThreshold: number;
      now: string;
    };

export class DuplicateLicenseKeyError extends AppError {
  /** Ids (from the command) of the keys that are already in the inventory or twice in the command. */
  constructor(readonly duplicates: string[]) {
    super(
      409,
      `${duplicates.length === 1 ? 'This license key is' : 'These license keys are'} already in the inventory`,
    );
  }
}

/** How many keys the line still waits for in the queue. */
const waitingFor = (state: InventoryState, orderId: string, lineId: string) =>
  state.waiting.find((line) => line.orderId === orderId && line.lineId === lineId)?.remaining ?? 0;

/** Up to `wanted` keys from the front of the shelf, none that came back from this order. */
function takeFromShelf(state: InventoryState, orderId: string, wanted: number): AssignedKey[] {
  const taken: AssignedKey[] = [];
  for (const stock of shelfOrder(state)) {
    if (taken.length === wanted) break;
    if (stock.returnedFrom !== orderId) taken.push({ keyId: stock.keyId, key: stock.key });
  }
  return taken;
}

/**
 * Hands available keys to the waiting lines, oldest request first, and raises the low-stock alert when the
 * decision leaves fewer keys than the threshold. Every decision ends here, so no key sits available while a
 * line waits.
 */
function serveAndWatch(
  decided: LicenseKeyEvent[],
  before: InventoryState,
  productId: string,
  lowStockThreshold: number,
  now: string,
): LicenseKeyEvent[] {
  const events = [...decided];
  let state = decided.reduce(evolveInventory, before);
  for (const line of state.waiting) {
    if (state.available.size === 0) break;
    const keys = takeFromShelf(state, line.orderId, line.remaining);
    if (keys.length === 0) continue;
    const assigned: LicenseKeyEvent = {
      type: 'LicenceKeysAssigned',
      data: { productId, orderId: line.orderId, lineId: line.lineId, keys, assignedAt: now },
    };
    events.push(assigned);
    state = evolveInventory(state, assigned);
  }
  if (
    lowStockThreshold > 0 &&
    state.lowStockAlertedBelow === null &&
    state.available.size < lowStockThreshold
  ) {
    events.push({
      type: 'LicenceKeyStockLow',
      data: { productId, available: state.available.size, threshold: lowStockThreshold, detectedAt: now },
    });
  }
  return events;
}

const addLicenseKeys = (
  cmd: Extract<LicenseKeyCommand, { type: 'AddLicenseKeys' }>,
  state: InventoryState,
): LicenseKeyEvent[] => {
  const seen = new Set<string>();
  const duplicates = cmd.keys.filter((key) => {
    const duplicate = state.fingerprints.has(key.fingerprint) || seen.has(key.fingerprint);
    seen.add(key.fingerprint);
    return duplicate;
  });
  if (duplicates.length > 0) throw new DuplicateLicenseKeyError(duplicates.map((key) => key.keyId));
  const added: LicenseKeyEvent[] = cmd.keys.map((key) => ({
    type: 'LicenceKeyAdded',
    data: { productId: cmd.productId, ...key, addedAt: cmd.now },
  }));
  return serveAndWatch(added, state, cmd.productId, cmd.lowStockThreshold, cmd.now);
};

const removeLicenseKey = (
  cmd: Extract<LicenseKeyCommand, { type: 'RemoveLicenseKey' }>,
  state: InventoryState,
): LicenseKeyEvent[] => {
  const key = keyStatus(state, cmd.keyId);
  if (!key) throw new NotFoundError('License key not found');
  if (key.status === 'revoked') {
    throw new IllegalStateError('This license key was revoked; it stays on record and cannot be deleted.');
  }
  if (key.status === 'assigned') {
    throw new IllegalStateError(
      `This license key is assigned to order ${orderNumber(key.orderId)} and cannot be deleted.`,
    );
  }
  const removed: LicenseKeyEvent = {
    type: 'LicenceKeyRemoved',
    data: { productId: cmd.productId, keyId: cmd.keyId, removedAt: cmd.now },
  };
  return serveAndWatch([removed], state, cmd.productId, cmd.lowStockThreshold, cmd.now);
};

const requestLicenseKeys = (
  cmd: Extract<LicenseKeyCommand, { type: 'RequestLicenseKeys' }>,
  state: InventoryState,
): LicenseKeyEvent[] => {
  // A line that asked before asks only for the keys it neither holds nor waits for: none for a retried job, all of
  // them for a reopened order whose keys were taken back when it was cancelled.
  const asked = lineRecord(state, cmd.orderId, cmd.lineId)?.requested === true;
  const missing = asked
    ? cmd.quantity - keysHeld(state, cmd.orderId, cmd.lineId) - waitingFor(state, cmd.orderId, cmd.lineId)
    : cmd.quantity;
  if (missing <= 0) return [];
  const requested: LicenseKeyEvent = {
    type: 'LicenceKeysRequested',
    data: {
      productId: cmd.productId,
      orderId: cmd.orderId,
      lineId: cmd.lineId,
      quantity: missing,
      requestedAt: cmd.now,
    },
  };
  return serveAndWatch([requested], state, cmd.productId, cmd.lowStockThreshold, cmd.now);
};

/**
 * Takes back the keys of an order line's refunded units (or of a cancelled order): a key that left the store is
 * revoked for good, any other goes back to stock and to the next waiting line; the line's place in the queue
 * shrinks to what it still wants. A line that asked before and still wants keys it no longer holds (a reopened order
 * giving back a key it gave up) asks for them again. Keys the line no longer holds and a want already met change
 * nothing, so a repeated job is harmless.
 */
const releaseLicenseKeys = (
  cmd: Extract<LicenseKeyCommand, { type: 'ReleaseLicenseKeys' }>,
  state: InventoryState,
): LicenseKeyEvent[] => {
  const { productId, orderId, lineId, now } = cmd;
  const released: LicenseKeyEvent[] = [];
  for (const { keyId, leftStore } of cmd.keys) {
    const key = state.sold.get(keyId);
    if (key?.status !== 'assigned' || key.line !== lineKey(orderId, lineId)) continue;
    released.push(
      leftStore
        ? { type: 'LicenceKeyRevoked', data: { productId, keyId, orderId, lineId, revokedAt: now } }
        : { type: 'LicenceKeyReturned', data: { productId, keyId, orderId, lineId, returnedAt: now } },
    );
  }
  const after = released.reduce(evolveInventory, state);
  const held = keysHeld(after, orderId, lineId);
  const surplus = waitingFor(after, orderId, lineId) - Math.max(0, cmd.wanted - held);
  if (surplus > 0) {
    released.push({
      type: 'LicenceKeysRequestWithdrawn',
      data: { productId, orderId, lineId, quantity: surplus, withdrawnAt: now },
    });
  } else if (surplus < 0 && lineRecord(after, orderId, lineId)?.requested) {
    released.push({
      type: 'LicenceKeysRequested',
      data: { productId, orderId, lineId, quantity: -surplus, requestedAt: now },
    });
  }
  if (released.length === 0) return [];
  return serveAndWatch(released, state, productId, cmd.lowStockThreshold, now);
};

export function decideInventory(cmd: LicenseKeyCommand, state: InventoryState): LicenseKeyEvent[] {
  switch (cmd.type) {
    case 'AddLicenseKeys':
      return addLicenseKeys(cmd, state);
    case 'RemoveLicenseKey':
      return removeLicenseKey(cmd, state);
    case 'RequestLicenseKeys':
      return requestLicenseKeys(cmd, state);
    case 'ReleaseLicenseKeys':
      return releaseLicenseKeys(cmd, state);
    default: {
      const exhaustive: never = cmd;
      return exhaustive;
    }
  }
}

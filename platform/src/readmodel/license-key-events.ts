import {
  LICENSE_KEYS_CATEGORY,
  type LicenseKeyEvent,
  parseLicenseKeyEvent,
} from '@licensestore/domain/license-keys';
import { batchParser } from './batch-parser.js';

/** The inventory events of a batch, their uuids in lower case (the folds key maps by the id text). */
export const parseLicenseKeyBatch = batchParser<LicenseKeyEvent>({
  category: LICENSE_KEYS_CATEGORY,
  parse: (event) => {
    const inventory = parseLicenseKeyEvent(event.type, event.data);
    if (!inventory) return null;
    const { data } = inventory;
    data.productId = data.productId.toLowerCase();
    if ('keyId' in data) data.keyId = data.keyId.toLowerCase();
    if ('orderId' in data) data.orderId = data.orderId.toLowerCase();
    if ('keys' in data) for (const key of data.keys) key.keyId = key.keyId.toLowerCase();
    return inventory;
  },
  describes: 'an inventory event',
});

/** When an inventory event happened: each carries its own timestamp. */
export function inventoryEventTime(event: LicenseKeyEvent): string {
  switch (event.type) {
    case 'LicenceKeyAdded':
      return event.data.addedAt;
    case 'LicenceKeyRemoved':
      return event.data.removedAt;
    case 'LicenceKeysRequested':
      return event.data.requestedAt;
    case 'LicenceKeysAssigned':
      return event.data.assignedAt;
    case 'LicenceKeyStockLow':
      return event.data.detectedAt;
    case 'LicenceKeyRevoked':
      return event.data.revokedAt;
    case 'LicenceKeyReturned':
      return event.data.returnedAt;
    case 'LicenceKeysRequestWithdrawn':
      return event.data.withdrawnAt;
    case 'LicenceKeyRevealed':
      return event.data.revealedAt;
  }
}

/** What a key counts for in a product's stock: removed (and never-added) keys are absent. */
export type KeyStatus = 'available' | 'assigned' | 'revoked';

/**
 * The status a key is left in by an event that names it, as `evolveInventory` has it: added makes it available
 * (whatever it was), removed takes it out, assigned assigns a key the inventory holds, revoked and returned
 * revoke it or make it available again. Undefined when absent.
 */
export function keyStatusAfter(status: KeyStatus | undefined, event: LicenseKeyEvent): KeyStatus | undefined {
  switch (event.type) {
    case 'LicenceKeyAdded':
      return 'available';
    case 'LicenceKeyRemoved':
      return undefined;
    case 'LicenceKeysAssigned':
      return status === undefined ? undefined : 'assigned';
    case 'LicenceKeyRevoked':
      return status === undefined ? undefined : 'revoked';
    case 'LicenceKeyReturned':
      return status === undefined ? undefined : 'available';
    case 'LicenceKeysRequested':
    case 'LicenceKeysRequestWithdrawn':
    case 'LicenceKeyStockLow':
    case 'LicenceKeyRevealed':
      return status;
  }
}

/** The ids of the keys an event names. */
export function keyIdsOf(event: LicenseKeyEvent): string[] {
  switch (event.type) {
    case 'LicenceKeyAdded':
    case 'LicenceKeyRemoved':
    case 'LicenceKeyRevoked':
    case 'LicenceKeyReturned':
      return [event.data.keyId];
    case 'LicenceKeysAssigned':
      return event.data.keys.map((key) => key.keyId);
    case 'LicenceKeysRequested':
    case 'LicenceKeysRequestWithdrawn':
    case 'LicenceKeyStockLow':
    // A showing changes nothing about the key.
    case 'LicenceKeyRevealed':
      return [];
  }
}

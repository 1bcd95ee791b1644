import type { Decider } from '../commands/index.js';
import { type LicenseKeyEvent, parseLicenseKeyEvent } from './events.js';
import { decideInventory, type LicenseKeyCommand } from './inventory.js';
import { evolveInventory, type InventoryState, initialInventoryState } from './inventory-state.js';

export * from './events.js';
export * from './inventory.js';
export * from './inventory-state.js';

/** `licenceKeys-<productId>`: one product's keys, the order lines waiting for them, and who got which. */
export const inventoryDecider: Decider<LicenseKeyCommand, InventoryState, LicenseKeyEvent> = {
  initialState: initialInventoryState,
  decide: decideInventory,
  evolve: evolveInventory,
  parse: parseLicenseKeyEvent,
};

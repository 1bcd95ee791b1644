import type { OrderUnit } from './events.js';
import type { PlacedOrder } from './order.js';

/**
 * An order's units, one per unit of quantity, named by the key each holds (null while it has none). A refunded unit
 * is no longer the customer's; the others are live.
 */

/** The units of `units` on one line: their keys, and how many have no key. */
const onLine = (units: readonly OrderUnit[], lineId: string) => {
  const keyIds = new Set<string>();
  let unkeyed = 0;
  for (const unit of units) {
    if (unit.lineId !== lineId) continue;
    if (unit.keyId === null) unkeyed++;
    else keyIds.add(unit.keyId);
  }
  return { keyIds, unkeyed, count: keyIds.size + unkeyed };
};

export interface LineUnits {
  lineId: string;
  /** Units still the customer's, keys first (oldest assigned first), then the ones still waiting for a key. */
  live: OrderUnit[];
  /**
   * Keys the line holds beyond its live units: a key the inventory gave a unit refunded while it waited (the
   * assignment crossed the refund). They go back, like a refunded unit's key.
   */
  surplusKeyIds: string[];
}

/** Per line, the live units and the keys held beyond them, given the units refunded so far. */
export function lineUnits(order: PlacedOrder, refunded: readonly OrderUnit[]): LineUnits[] {
  return order.lines.map((line) => {
    const gone = onLine(refunded, line.lineId);
    const liveCount = Math.max(0, line.quantity - gone.count);
    const heldKeys = (order.keys[line.lineId] ?? [])
      .map((key) => key.keyId)
      .filter((keyId) => !gone.keyIds.has(keyId));
    const keyed = heldKeys.slice(0, liveCount);
    const live: OrderUnit[] = [
      ...keyed.map((keyId) => ({ lineId: line.lineId, keyId })),
      ...Array.from({ length: liveCount - keyed.length }, () => ({ lineId: line.lineId, keyId: null })),
    ];
    return { lineId: line.lineId, live, surplusKeyIds: heldKeys.slice(liveCount) };
  });
}

/** The order's live units, line by line. */
export const liveUnits = (order: PlacedOrder): OrderUnit[] =>
  lineUnits(order, order.refundedUnits).flatMap((line) => line.live);

/** Live units of the order (not refunded) still without a key. */
export const unitsAwaitingKeys = (order: PlacedOrder) =>
  liveUnits(order).filter((unit) => unit.keyId === null).length;

/**
 * Takes the units of `wanted` out of `available`: each available unit answers one wanted unit (a unit without a key
 * answers one wanted keyless unit of its line). `missing` are the wanted units not available, `rest` what is left.
 */
export function takeUnits(
  wanted: readonly OrderUnit[],
  available: readonly OrderUnit[],
): { missing: OrderUnit[]; rest: OrderUnit[] } {
  const rest = [...available];
  const missing: OrderUnit[] = [];
  for (const unit of wanted) {
    const index = rest.findIndex(
      (candidate) => candidate.lineId === unit.lineId && candidate.keyId === unit.keyId,
    );
    if (index === -1) missing.push(unit);
    else rest.splice(index, 1);
  }
  return { missing, rest };
}

/** What one line gives back to its product's inventory: the keys to take back, and how many keys it still wants. */
export interface LineRelease {
  productId: string;
  lineId: string;
  keys: Array<{ keyId: string; leftStore: boolean }>;
  wanted: number;
}

/**
 * What an order gives back to the inventories: every key and every wait of a cancelled or refunded order (or one
 * whose payment was denied), else the keys of refunded units and keys held beyond the live units; and always the
 * keys it gave up when reopened, whose cancel may not have given them back yet. A key that left the store
 * (`keysOutOfStore`) is revoked, any other returns to stock. Empty when nothing is to give back.
 */
export function keyReleases(order: PlacedOrder): LineRelease[] {
  const out = new Set(order.keysOutOfStore);
  const whole = order.status === 'cancelled' || order.status === 'refunded' || order.payment === 'denied';
  const lines = lineUnits(order, order.refundedUnits);
  return order.lines.flatMap((line, index) => {
    const units = lines[index] as LineUnits;
    const held = (order.keys[line.lineId] ?? []).map((key) => key.keyId);
    const kept = new Set(units.live.flatMap((unit) => (unit.keyId === null ? [] : [unit.keyId])));
    const givenUp = (order.keysGivenUp[line.lineId] ?? []).filter((keyId) => !held.includes(keyId));
    const keyIds = [...givenUp, ...(whole ? held : held.filter((keyId) => !kept.has(keyId)))];
    const wanted = whole ? 0 : units.live.length;
    if (keyIds.length === 0 && wanted === line.quantity) return [];
    return [
      {
        productId: line.productId,
        lineId: line.lineId,
        keys: keyIds.map((keyId) => ({ keyId, leftStore: out.has(keyId) })),
        wanted,
      },
    ];
  });
}

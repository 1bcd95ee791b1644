import { Map as ImmutableMap, Set as ImmutableSet, List } from 'immutable';
import type { LicenseKeyEvent } from './events.js';

/** A key on the shelf, ready to be handed out. */
export interface StockKey {
  keyId: string;
  /** Sealed (key-vault). */
  key: string;
  fingerprint: string;
  /** The order it came back from: never handed to that order again (its unit was refunded). */
  returnedFrom?: string;
}

/**
 * A key an order line took. Its sealed text stays for as long as it can come back to the shelf (a refund of a key
 * that never left the store); its fingerprint, so that a key once sold is never added again.
 */
export interface SoldKey {
  key: string;
  fingerprint: string;
  /** `lineKey` of the order line it went to. */
  line: string;
  status: 'assigned' | 'revoked';
  /** The order it last came back from, kept for the record. */
  returnedFrom?: string;
}

export interface WaitingLine {
  orderId: string;
  lineId: string;
  remaining: number;
}

/**
 * What the inventory knows of an order line: whether it ever asked (a retried request changes nothing), and how
 * many keys it holds.
 */
export interface LineRecord {
  requested: boolean;
  held: number;
}

/**
 * Persistent collections (immutable.js): every event makes a new state in O(log n) instead of copying the
 * product's whole key history, so folding a stream of millions of events stays linear. A key sold is kept as
 * little as later decisions need (the text that could come back, the fingerprint, the line holding it), since a
 * year's inventory holds every key ever added and a worker keeps hundreds of them.
 */
export interface InventoryState {
  /** Keys on the shelf by id. */
  available: ImmutableMap<string, StockKey>;
  /**
   * The shelf in the order keys are handed out, oldest first (a returned key goes to the back). An entry is
   * current only while `available` holds that very entry; the others (taken, removed, or back at a later place)
   * are skipped, and dropped once they reach the front, so taking from the front never walks a growing tail.
   */
  shelf: List<StockKey>;
  sold: ImmutableMap<string, SoldKey>;
  /** Fingerprints of keys in the inventory (available, sold or revoked); a removed key may be added again. */
  fingerprints: ImmutableSet<string>;
  /** By `lineKey`. */
  lines: ImmutableMap<string, LineRecord>;
  /** Order lines still owed keys, oldest request first. */
  waiting: List<WaitingLine>;
  /** The threshold the last low-stock alert was raised for; null when stock is above it again (re-armed). */
  lowStockAlertedBelow: number | null;
}

export const initialInventoryState: InventoryState = {
  available: ImmutableMap(),
  shelf: List(),
  sold: ImmutableMap(),
  fingerprints: ImmutableSet(),
  lines: ImmutableMap(),
  waiting: List(),
  lowStockAlertedBelow: null,
};

/** Where a key is, as the inventory has it: undefined for a key never added or removed since. */
export function keyStatus(
  state: InventoryState,
  keyId: string,
): { status: 'available' } | { status: SoldKey['status']; orderId: string } | undefined {
  if (state.available.has(keyId)) return { status: 'available' };
  const sold = state.sold.get(keyId);
  return sold && { status: sold.status, orderId: soldTo(sold).orderId };
}

/** An order line's key in `lines`, made once per event and shared by the keys it names. */
export const lineKey = (orderId: string, lineId: string) => `${orderId}/${lineId}`;

/** The order line a sold key went to (an order id holds no slash, so the first one ends it). */
export function soldTo(key: SoldKey): { orderId: string; lineId: string } {
  const slash = key.line.indexOf('/');
  return { orderId: key.line.slice(0, slash), lineId: key.line.slice(slash + 1) };
}

/** Whether the line ever asked, and what it holds. */
export const lineRecord = (state: InventoryState, orderId: string, lineId: string): LineRecord | undefined =>
  state.lines.get(lineKey(orderId, lineId));

/** The keys the line holds now (assigned, not given back). */
export const keysHeld = (state: InventoryState, orderId: string, lineId: string) =>
  lineRecord(state, orderId, lineId)?.held ?? 0;

/** Available keys in handing-out order. */
export function* shelfOrder(state: InventoryState): Generator<StockKey> {
  for (const entry of state.shelf) if (state.available.get(entry.keyId) === entry) yield entry;
}

function withoutStaleFront(state: InventoryState): InventoryState {
  let shelf = state.shelf;
  for (;;) {
    const front = shelf.first();
    if (front === undefined || state.available.get(front.keyId) === front) break;
    shelf = shelf.shift();
  }
  return shelf === state.shelf ? state : { ...state, shelf };
}

function changeLine(
  lines: InventoryState['lines'],
  line: string,
  change: (record: LineRecord) => LineRecord,
): InventoryState['lines'] {
  return lines.set(line, change(lines.get(line) ?? { requested: false, held: 0 }));
}

const countHeld = (lines: InventoryState['lines'], key: SoldKey, by: number) =>
  key.status === 'assigned'
    ? changeLine(lines, key.line, (record) => ({ ...record, held: record.held + by }))
    : lines;

/** Takes the key off the shelf or out of the sold keys, with its line's count; the fingerprint stays. */
function withoutKey(state: InventoryState, keyId: string): InventoryState {
  const sold = state.sold.get(keyId);
  if (sold) {
    return {
      ...state,
      sold: state.sold.delete(keyId),
      lines: countHeld(state.lines, sold, -1),
    };
  }
  return state.available.has(keyId)
    ? withoutStaleFront({ ...state, available: state.available.delete(keyId) })
    : state;
}

function shelved(state: InventoryState, key: StockKey): InventoryState {
  const without = withoutKey(state, key.keyId);
  return rearm({
    ...without,
    available: without.available.set(key.keyId, key),
    shelf: without.shelf.push(key),
    fingerprints: without.fingerprints.add(key.fingerprint),
  });
}

function sold(state: InventoryState, keyId: string, key: SoldKey): InventoryState {
  const without = withoutKey(state, keyId);
  return {
    ...without,
    sold: without.sold.set(keyId, key),
    lines: countHeld(without.lines, key, 1),
  };
}

/** The key wherever it is; undefined for a key the inventory does not hold. */
function heldKey(state: InventoryState, keyId: string): StockKey | SoldKey | undefined {
  return state.available.get(keyId) ?? state.sold.get(keyId);
}

function soldKey(
  held: StockKey | SoldKey,
  { key, line, status }: Omit<SoldKey, 'fingerprint' | 'returnedFrom'>,
): SoldKey {
  const { fingerprint, returnedFrom } = held;
  return returnedFrom === undefined
    ? { key, fingerprint, line, status }
    : { key, fingerprint, line, status, returnedFrom };
}

function rearm(state: InventoryState): InventoryState {
  const alerted = state.lowStockAlertedBelow;
  return alerted !== null && state.available.size >= alerted
    ? { ...state, lowStockAlertedBelow: null }
    : state;
}

function shrinkWait(waiting: List<WaitingLine>, orderId: string, lineId: string, by: number) {
  return waiting
    .map((line) =>
      line.orderId === orderId && line.lineId === lineId ? { ...line, remaining: line.remaining - by } : line,
    )
    .filter((line) => line.remaining > 0);
}

export function evolveInventory(state: InventoryState, event: LicenseKeyEvent): InventoryState {
  switch (event.type) {
    case 'LicenceKeyAdded': {
      const { keyId, key, fingerprint } = event.data;
      return shelved(state, { keyId, key, fingerprint });
    }
    case 'LicenceKeyRemoved': {
      const removed = heldKey(state, event.data.keyId);
      if (!removed) return state;
      const without = withoutKey(state, event.data.keyId);
      return { ...without, fingerprints: without.fingerprints.delete(removed.fingerprint) };
    }
    case 'LicenceKeysRequested': {
      const { orderId, lineId, quantity } = event.data;
      // A line still in the queue that asks for more keeps its place; any other joins at the back. Only a line that
      // asked before can be in the queue, so a first request never searches it.
      const at = state.lines.get(lineKey(orderId, lineId))?.requested
        ? state.waiting.findIndex((line) => line.orderId === orderId && line.lineId === lineId)
        : -1;
      return {
        ...state,
        waiting:
          at === -1
            ? state.waiting.push({ orderId, lineId, remaining: quantity })
            : state.waiting.update(at, (line) => line && { ...line, remaining: line.remaining + quantity }),
        lines: changeLine(state.lines, lineKey(orderId, lineId), (record) => ({
          ...record,
          requested: true,
        })),
      };
    }
    case 'LicenceKeysAssigned': {
      const { orderId, lineId, keys } = event.data;
      const line = lineKey(orderId, lineId);
      let next = state;
      for (const { keyId, key } of keys) {
        const held = heldKey(next, keyId);
        if (held) next = sold(next, keyId, soldKey(held, { key, line, status: 'assigned' }));
      }
      return { ...next, waiting: shrinkWait(next.waiting, orderId, lineId, keys.length) };
    }
    case 'LicenceKeyRevoked': {
      const held = heldKey(state, event.data.keyId);
      if (!held) return state;
      const line = lineKey(event.data.orderId, event.data.lineId);
      return sold(state, event.data.keyId, soldKey(held, { key: held.key, line, status: 'revoked' }));
    }
    case 'LicenceKeyReturned': {
      const held = heldKey(state, event.data.keyId);
      if (!held) return state;
      const { key, fingerprint } = held;
      return shelved(state, { keyId: event.data.keyId, key, fingerprint, returnedFrom: event.data.orderId });
    }
    case 'LicenceKeysRequestWithdrawn': {
      const { orderId, lineId, quantity } = event.data;
      return { ...state, waiting: shrinkWait(state.waiting, orderId, lineId, quantity) };
    }
    case 'LicenceKeyStockLow':
      return { ...state, lowStockAlertedBelow: event.data.threshold };
    case 'LicenceKeyRevealed':
      return state;
  }
}

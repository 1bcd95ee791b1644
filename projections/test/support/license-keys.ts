import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AssignedKey,
  formatCents,
  type InventoryState,
  inventoryDecider,
  keyReleases,
  type LicenseKeyCommand,
  type LicenseKeyEvent,
  type LineRelease,
  licenseKeysStream,
  type NewLicenseKey,
  type OrderCommand,
  type OrderLine,
  orderDecider,
  orderStream,
  type PlacedOrder,
  toCents,
} from '@licensestore/domain';
import { handleCommand } from '@licensestore/domain/commands';
import type { EventStore } from '@licensestore/domain/events';
import { createKeyVault, type KeyVault } from '@licensestore/platform/key-vault';
import { metadata, random, seededClock } from './catalogue.js';
import { decidedStreams } from './decided-streams.js';
import { orderLine, type StoreAppend } from './orders.js';

/** A key vault under a secret of its own, as each store has. */
export const testVault = () => createKeyVault(randomBytes(32).toString('base64url'));

/** A key as admins paste it: five groups of five. */
const licenseKeyText = (char: () => string) =>
  Array.from({ length: 5 }, () => Array.from({ length: 5 }, char).join('')).join('-');

const ALPHABET = 'BCDFGHJKMPQRTVWXY2346789';

/** Keys sealed and fingerprinted the way the API adds them; `text` gives the typed key for a test to compare. */
export function newKeys(
  vault: KeyVault,
  count: number,
  rnd: ReturnType<typeof random> = random(randomBytes(4).readUInt32LE()),
): Array<NewLicenseKey & { text: string }> {
  return Array.from({ length: count }, () => {
    const text = licenseKeyText(() => rnd.pick([...ALPHABET]));
    return { keyId: rnd.uuid(), key: vault.seal(text), fingerprint: vault.fingerprint(text), text };
  });
}

export const newKey = (vault: KeyVault) => newKeys(vault, 1)[0] as NewLicenseKey & { text: string };

const LOW_STOCK_THRESHOLD = 3;

/** One product's key inventory, driven through its decider as the API and the workers do. */
export function inventoryOf(store: EventStore, productId: string) {
  const run = (command: LicenseKeyCommand) =>
    handleCommand(store, licenseKeysStream(productId), inventoryDecider, command, metadata);
  return {
    add: (keys: NewLicenseKey[], now: string) =>
      run({
        type: 'AddLicenseKeys',
        productId,
        keys: keys.map(({ keyId, key, fingerprint }) => ({ keyId, key, fingerprint })),
        lowStockThreshold: LOW_STOCK_THRESHOLD,
        now,
      }),
    remove: (keyId: string, now: string) =>
      run({ type: 'RemoveLicenseKey', productId, keyId, lowStockThreshold: LOW_STOCK_THRESHOLD, now }),
    request: (orderId: string, lineId: string, quantity: number, now: string) =>
      run({
        type: 'RequestLicenseKeys',
        productId,
        orderId,
        lineId,
        quantity,
        lowStockThreshold: LOW_STOCK_THRESHOLD,
        now,
      }),
  };
}

/** The keys an inventory decision gave, per order line, as the reactor hands them on. */
export const assignmentsIn = (events: readonly LicenseKeyEvent[]) =>
  events.flatMap((event) => (event.type === 'LicenceKeysAssigned' ? [event.data] : []));

const totalOf = (lines: OrderLine[]) =>
  formatCents(lines.reduce((sum, line) => sum + toCents(line.lineTotal), 0));

/** Orders driven through the order decider as the API, webhooks and workers do. */
export function ordersIn(store: EventStore) {
  const run = (orderId: string, command: OrderCommand) =>
    handleCommand(store, orderStream(orderId), orderDecider, command, metadata);
  return {
    place: async (options: {
      lines: OrderLine[];
      captureStatus?: 'COMPLETED' | 'PENDING';
      email?: string;
      now: string;
    }) => {
      const orderId = randomUUID();
      const outcome = await run(orderId, {
        type: 'PlaceCapturedOrder',
        orderId,
        paypalOrderId: `PAYPAL-${randomUUID()}`,
        captureId: `CAPTURE-${orderId}`,
        captureStatus: options.captureStatus ?? 'COMPLETED',
        customer: { name: 'Ada Lovelace', email: options.email ?? 'ada@example.com' },
        lines: options.lines,
        total: totalOf(options.lines),
        currency: 'USD',
        now: options.now,
      });
      return { orderId, ...outcome };
    },
    completePayment: (orderId: string, now: string) =>
      run(orderId, { type: 'CompleteOrderPayment', orderId, captureId: `CAPTURE-${orderId}`, now }),
    changeStatus: (orderId: string, to: 'pending' | 'completed' | 'cancelled', now: string) =>
      run(orderId, { type: 'ChangeOrderStatus', orderId, to, now }),
    recordKeys: (orderId: string, lineId: string, keys: AssignedKey[], now: string) =>
      run(orderId, { type: 'RecordLicenseKeys', orderId, lineId, keys, now }),
    recordEmailSent: (orderId: string, trigger: string, now: string) =>
      run(orderId, {
        type: 'RecordDeliveryEmailSent',
        orderId,
        trigger,
        recipient: 'ada@example.com',
        messageId: `<${trigger}@licensestore.test>`,
        now,
      }),
  };
}

/** The request a paid line makes of its product's inventory for its keys, as the workers send it. */
export const keyRequest = (
  orderId: string,
  line: Pick<OrderLine, 'lineId' | 'productId' | 'quantity'>,
  now: string,
): LicenseKeyCommand => ({
  type: 'RequestLicenseKeys',
  productId: line.productId,
  orderId,
  lineId: line.lineId,
  quantity: line.quantity,
  lowStockThreshold: LOW_STOCK_THRESHOLD,
  now,
});

/** The keys a cancelled or refunded order's line gives back to its product's inventory, as the workers send them. */
export const keyRelease = (orderId: string, release: LineRelease, now: string): LicenseKeyCommand => ({
  type: 'ReleaseLicenseKeys',
  productId: release.productId,
  orderId,
  lineId: release.lineId,
  keys: release.keys,
  wanted: release.wanted,
  lowStockThreshold: LOW_STOCK_THRESHOLD,
  now,
});

/**
 * A believable delivery history, seeded, decided by the real deciders in memory: keys added to a few products
 * (and the odd one removed), orders captured paid or pending, payments completing or denied, refunds and admin
 * status changes; every paid line asks its product's inventory for keys, and the keys each line gets are
 * recorded on its order a little later (as the reactor does), fulfilling it, after which its e-mail is sent.
 * Append calls in log order, each with the stream's exact expected revision.
 */
export function* deliveryHistory(options: {
  seed: number;
  products: number;
  /** The products' ids (a catalogue created elsewhere); `products` random ones when absent. */
  productIds?: readonly string[];
  steps: number;
  vault: KeyVault;
}): Generator<StoreAppend> {
  const rnd = random(options.seed);
  const now = seededClock(rnd, '2026-02-01T00:00:00.000Z', 60);
  const streams = decidedStreams();
  const products = options.productIds ?? Array.from({ length: options.products }, () => rnd.uuid());
  const orders: string[] = [];
  const owed: Array<{ orderId: string; lineId: string; keys: AssignedKey[] }> = [];

  const inventory = function* (productId: string, command: LicenseKeyCommand) {
    const { append, events } = streams.decide(licenseKeysStream(productId), inventoryDecider, command);
    owed.push(...assignmentsIn(events));
    if (events.length > 0) yield append;
  };
  const order = function* (orderId: string, command: OrderCommand) {
    const decided = streams.decide(orderStream(orderId), orderDecider, command);
    if (decided.events.length > 0) yield decided.append;
    return decided;
  };
  const requestKeys = function* (orderId: string) {
    const state = streams.stateOf(orderStream(orderId)) as PlacedOrder;
    for (const line of state.lines) {
      yield* inventory(line.productId, keyRequest(orderId, line, now()));
    }
  };
  const releaseKeys = function* (orderId: string) {
    const state = streams.stateOf(orderStream(orderId)) as PlacedOrder;
    for (const release of keyReleases(state))
      yield* inventory(release.productId, keyRelease(orderId, release, now()));
  };
  const recordOwed = function* (index: number) {
    const [assignment] = owed.splice(index, 1);
    if (!assignment) return;
    const { orderId, lineId, keys } = assignment;
    const recorded = yield* order(orderId, { type: 'RecordLicenseKeys', orderId, lineId, keys, now: now() });
    // Keys that reached a cancelled or refunded order go back at once, as the workers give them back.
    yield* releaseKeys(orderId);
    if (recorded.events.some((event) => event.type === 'OrderFulfilled') && rnd.next() < 0.8) {
      yield* order(orderId, {
        type: 'RecordDeliveryEmailSent',
        orderId,
        trigger: rnd.uuid(),
        recipient: 'customer@example.com',
        messageId: `<${rnd.uuid()}@licensestore.test>`,
        now: now(),
      });
    }
  };

  for (let step = 0; step < options.steps; step++) {
    const roll = rnd.next();
    if (roll < 0.2) {
      const productId = rnd.pick(products);
      const keys = newKeys(options.vault, rnd.int(1, 4), rnd).map(({ keyId, key, fingerprint }) => ({
        keyId,
        key,
        fingerprint,
      }));
      yield* inventory(productId, {
        type: 'AddLicenseKeys',
        productId,
        keys,
        lowStockThreshold: LOW_STOCK_THRESHOLD,
        now: now(),
      });
    } else if (roll < 0.25) {
      const productId = rnd.pick(products);
      const state = streams.stateOf(licenseKeysStream(productId)) as InventoryState | undefined;
      if (!state || state.available.size === 0) continue;
      yield* inventory(productId, {
        type: 'RemoveLicenseKey',
        productId,
        keyId: rnd.pick([...state.available.keys()]),
        lowStockThreshold: LOW_STOCK_THRESHOLD,
        now: now(),
      });
    } else if (roll < 0.5) {
      const orderId = rnd.uuid();
      const lines = Array.from({ length: rnd.int(1, 2) }, () =>
        orderLine('Windows 11 Pro', rnd.int(1, 3), '19.99', rnd.pick(products)),
      );
      const paid = rnd.next() < 0.7;
      orders.push(orderId);
      yield* order(orderId, {
        type: 'PlaceCapturedOrder',
        orderId,
        paypalOrderId: `PAYPAL-${orderId}`,
        captureId: `CAPTURE-${orderId}`,
        captureStatus: paid ? 'COMPLETED' : 'PENDING',
        customer: { name: 'Customer', email: rnd.pick(['ada@example.com', 'grace@example.org']) },
        lines,
        total: totalOf(lines),
        currency: 'USD',
        now: now(),
      });
      if (paid) yield* requestKeys(orderId);
    } else if (roll < 0.6 && orders.length > 0) {
      const orderId = rnd.pick(orders);
      const state = streams.stateOf(orderStream(orderId)) as PlacedOrder;
      if (state.payment !== 'pending') continue;
      const captureId = `CAPTURE-${orderId}`;
      if (rnd.next() < 0.7) {
        yield* order(orderId, { type: 'CompleteOrderPayment', orderId, captureId, now: now() });
        yield* requestKeys(orderId);
      } else {
        yield* order(orderId, { type: 'DenyOrderPayment', orderId, captureId, now: now() });
      }
    } else if (roll < 0.65 && orders.length > 0) {
      const orderId = rnd.pick(orders);
      const state = streams.stateOf(orderStream(orderId)) as PlacedOrder;
      if (state.status === 'cancelled' || state.status === 'refunded') continue;
      if (rnd.next() < 0.3) {
        if (state.payment !== 'completed') continue;
        const refundId = rnd.uuid();
        const requested = yield* order(orderId, {
          type: 'RefundOrderUnits',
          orderId,
          refundId,
          units: 'all',
          reason: 'Refunded',
          now: now(),
        });
        const amount =
          requested.events[0]?.type === 'OrderRefundRequested' ? requested.events[0].data.amount : '0';
        yield* order(orderId, {
          type: 'CompleteOrderRefund',
          orderId,
          captureId: `CAPTURE-${orderId}`,
          refundId,
          paypalRefundId: `REFUND-${refundId}`,
          amount,
          now: now(),
        });
      } else {
        const to = rnd.pick(['pending', 'completed', 'cancelled'] as const);
        yield* order(orderId, { type: 'ChangeOrderStatus', orderId, to, now: now() });
      }
      yield* releaseKeys(orderId);
    } else if (owed.length > 0) {
      yield* recordOwed(rnd.int(0, owed.length - 1));
    }
  }
  while (owed.length > 0) yield* recordOwed(0);
}

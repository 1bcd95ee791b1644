import { randomUUID } from 'node:crypto';
import {
  formatCents,
  type InventoryState,
  inventoryDecider,
  keyReleases,
  type LicenseKeyCommand,
  type LicenseKeyEvent,
  licenseKeysStream,
  type OrderCommand,
  type OrderEvent,
  type OrderLine,
  orderDecider,
  orderStream,
  type PlacedOrder,
  type ProductEvent,
  toCents,
} from '@licensestore/domain';
import { timeOrderedId } from '@licensestore/platform/ids';
import type { KeyVault } from '@licensestore/platform/key-vault';
import { checkoutOf } from '../../projections/bench/support/store-log.js';
import { type BulkAppend, catalogueHistory, random } from '../../projections/test/support/catalogue.js';
import { decidedStreams } from '../../projections/test/support/decided-streams.js';
import { keyRelease, keyRequest } from '../../projections/test/support/license-keys.js';

const LOW_STOCK_THRESHOLD = 3;
/** Keys an admin imports at once, at most; a product short of stock for an order gets one import first. */
const MAX_IMPORT = 250;
const REFUND_SHARE = 0.02;
const PENDING_SHARE = 0.03;
const YEAR_MS = 365 * 24 * 3600 * 1000;
const ALPHABET = 'BCDFGHJKMPQRTVWXY2346789';
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Radia', 'Tim'];
const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Thompson',
  'Perlman',
];

export interface ScaleHistoryOptions {
  orders: number;
  /** Keys added over the year, whether sold or still in stock: at least what the orders take. */
  keys: number;
  products: number;
  seed: number;
  /** The store's own vault: the api must be able to open what is sealed here. */
  vault: KeyVault;
}

/** Values the bench searches for and pages to, taken from an order in the middle of the year. */
export interface ScaleProbe {
  orderId: string;
  paypalOrderId: string;
  customerName: string;
  customerEmail: string;
  productId: string;
  /** The last characters of a key sold to that order, as an admin reads them off a customer's message. */
  keyTail: string;
}

/** What the history holds once it has been read to its end. */
export interface ScaleCounts {
  orders: number;
  keysAdded: number;
  keysAssigned: number;
  refunds: number;
  probe: ScaleProbe | null;
}

/** A key as admins paste it: five groups of five. */
function licenseKeyText(rnd: ReturnType<typeof random>) {
  let text = '';
  for (let i = 0; i < 25; i++) {
    if (i > 0 && i % 5 === 0) text += '-';
    text += ALPHABET[Math.floor(rnd.next() * ALPHABET.length)];
  }
  return text;
}

/**
 * A year of a store's business as append calls in log order, decided by the real deciders in memory: the catalogue
 * created, keys imported per product as stock runs short, and `orders` checkouts each started and captured, its
 * order captured (a few still pending at PayPal), its keys requested and assigned on the product's inventory,
 * recorded on the order (fulfilling it) and its delivery e-mail sent; a few refunded, their keys revoked. After the
 * last order the rest of the `keys` are imported as unsold stock. Each order's streams are forgotten once it is done,
 * so memory holds the inventories, not the year. `counts` fills in as the history is read.
 */
export function scaleHistory(options: ScaleHistoryOptions): {
  appends: Generator<BulkAppend>;
  counts: ScaleCounts;
} {
  const counts: ScaleCounts = { orders: 0, keysAdded: 0, keysAssigned: 0, refunds: 0, probe: null };
  return { appends: generate(options, counts), counts };
}

function* generate(options: ScaleHistoryOptions, counts: ScaleCounts): Generator<BulkAppend> {
  const rnd = random(options.seed);
  const start = Date.parse('2025-11-01T00:00:00.000Z');
  let clock = start;
  const now = () => {
    clock += 1 + Math.floor(rnd.next() * 4);
    return new Date(clock).toISOString();
  };
  const streams = decidedStreams();
  const inventory = (productId: string, command: LicenseKeyCommand) =>
    streams.decide(licenseKeysStream(productId), inventoryDecider, command);
  const order = (orderId: string, command: OrderCommand) =>
    streams.decide(orderStream(orderId), orderDecider, command);
  const available = (productId: string) =>
    (streams.stateOf(licenseKeysStream(productId)) as InventoryState | undefined)?.available.size ?? 0;
  // Small stores import small batches, so the keys sold and the keys added keep the proportions of any size.
  const importSize = Math.max(1, Math.min(MAX_IMPORT, Math.floor(options.keys / (options.products * 4))));
  const keyTexts = new Map<string, string>();
  const importKeys = (productId: string, count: number) => {
    const keys = Array.from({ length: count }, () => {
      const text = licenseKeyText(rnd);
      const keyId = randomUUID();
      // Only the probe's key is ever read back: stop keeping texts once it is taken.
      if (!counts.probe) keyTexts.set(keyId, text);
      return {
        keyId,
        key: options.vault.seal(text),
        fingerprint: options.vault.fingerprint(text),
        tailHash: options.vault.tailHash(text),
      };
    });
    counts.keysAdded += count;
    return inventory(productId, {
      type: 'AddLicenseKeys',
      productId,
      keys,
      lowStockThreshold: LOW_STOCK_THRESHOLD,
      now: now(),
    }).append;
  };

  const catalogue = catalogueHistory({
    products: options.products,
    events: options.products,
    seed: options.seed,
  });
  const products: Array<{ id: string; name: string; price: string }> = [];
  for (const append of catalogue) {
    const created = append.events[0] as Extract<ProductEvent, { type: 'ProductCreated' }>;
    const { fields } = created.data;
    products.push({
      id: created.data.productId,
      name: fields.name,
      price: fields.salePrice ?? fields.regularPrice,
    });
    yield append;
  }
  const customers = Math.max(1, Math.floor(options.orders / 3));
  const customer = (index: number) => ({
    name: `${FIRST_NAMES[index % FIRST_NAMES.length]} ${LAST_NAMES[Math.floor(index / FIRST_NAMES.length) % LAST_NAMES.length]} ${index}`,
    email: `customer${index}@example.com`,
  });

  for (let n = 0; n < options.orders; n++) {
    // Spread the orders over a year, whatever their number.
    clock = Math.max(clock, start + Math.floor((n / options.orders) * YEAR_MS));
    const orderId = randomUUID();
    const paid = rnd.next() >= PENDING_SHARE;
    const lines: OrderLine[] = Array.from({ length: rnd.next() < 0.8 ? 1 : 2 }, () => {
      const product = rnd.pick(products);
      const quantity = rnd.next() < 0.75 ? 1 : 2;
      return {
        lineId: timeOrderedId(clock),
        productId: product.id,
        productName: product.name,
        quantity,
        unitPrice: product.price,
        lineTotal: formatCents(toCents(product.price) * quantity),
      };
    });
    const placed = order(orderId, {
      type: 'PlaceCapturedOrder',
      orderId,
      paypalOrderId: `PAYPAL-${orderId}`,
      captureId: `CAPTURE-${orderId}`,
      captureStatus: paid ? 'COMPLETED' : 'PENDING',
      customer: customer(rnd.int(0, customers - 1)),
      lines,
      total: formatCents(lines.reduce((sum, line) => sum + toCents(line.lineTotal), 0)),
      currency: 'USD',
      now: now(),
    });
    const captured = placed.events[0] as Extract<OrderEvent, { type: 'OrderCaptured' }>;
    yield checkoutOf(captured.data);
    yield placed.append;
    counts.orders++;
    if (!paid) {
      streams.forget(orderStream(orderId));
      continue;
    }

    const assigned: Array<{ lineId: string; keys: Array<{ keyId: string; key: string }> }> = [];
    for (const line of lines) {
      while (available(line.productId) < line.quantity) yield importKeys(line.productId, importSize);
      const requested = inventory(line.productId, keyRequest(orderId, line, now()));
      yield requested.append;
      for (const event of requested.events as LicenseKeyEvent[]) {
        if (event.type === 'LicenceKeysAssigned' && event.data.orderId === orderId) assigned.push(event.data);
      }
    }
    for (const { lineId, keys } of assigned) {
      counts.keysAssigned += keys.length;
      yield order(orderId, { type: 'RecordLicenseKeys', orderId, lineId, keys, now: now() }).append;
    }
    const fulfilled = order(orderId, {
      type: 'RecordDeliveryEmailSent',
      orderId,
      trigger: randomUUID(),
      recipient: captured.data.customer.email,
      messageId: `<${randomUUID()}@licensestore.test>`,
      now: now(),
    });
    yield fulfilled.append;
    if (n === Math.floor(options.orders / 2)) {
      const keyId = assigned[0]?.keys[0]?.keyId ?? '';
      counts.probe = {
        orderId,
        paypalOrderId: captured.data.paypalOrderId,
        customerName: captured.data.customer.name,
        customerEmail: captured.data.customer.email,
        productId: lines[0]?.productId ?? '',
        keyTail: (keyTexts.get(keyId) ?? '').slice(-4),
      };
    }
    if (rnd.next() < REFUND_SHARE) {
      const refundId = timeOrderedId(clock);
      const requested = order(orderId, {
        type: 'RefundOrderUnits',
        orderId,
        refundId,
        units: 'all',
        reason: 'Refunded',
        now: now(),
      });
      yield requested.append;
      const asked = requested.events.find((event) => event.type === 'OrderRefundRequested');
      const completed = order(orderId, {
        type: 'CompleteOrderRefund',
        orderId,
        captureId: `CAPTURE-${orderId}`,
        refundId,
        paypalRefundId: `REFUND-${refundId}`,
        amount: asked?.type === 'OrderRefundRequested' ? asked.data.amount : '0.00',
        now: now(),
      });
      yield completed.append;
      for (const release of keyReleases(completed.state as PlacedOrder)) {
        yield inventory(release.productId, keyRelease(orderId, release, now())).append;
      }
      counts.refunds++;
    }
    streams.forget(orderStream(orderId));
    for (const { keys } of assigned) for (const { keyId } of keys) keyTexts.delete(keyId);
  }

  // The rest of the year's imports: stock not sold yet, spread over the catalogue.
  for (let index = 0; counts.keysAdded < options.keys; index++) {
    const product = products[index % products.length] as (typeof products)[number];
    yield importKeys(product.id, Math.min(importSize, options.keys - counts.keysAdded));
  }
  // Whoever holds the finished generator holds its closures, and through them these maps: at a year's size, 2.5 GB
  // of inventory states that every garbage collection of the bench's process would walk while it rebuilds.
  streams.forgetAll();
  keyTexts.clear();
}

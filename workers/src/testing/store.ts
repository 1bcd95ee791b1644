import { randomUUID } from 'node:crypto';
import {
  inventoryDecider,
  licenseKeysStream,
  orderDecider,
  orderStream,
  productDecider,
  productStream,
  type RiskRuleName,
} from '@licensestore/domain';
import { handleCommand, loadStream } from '@licensestore/domain/commands';
import {
  type EventStore,
  type NewEventMetadata,
  type RecordedEvent,
  recordedOrThrow,
} from '@licensestore/domain/events';
import type { KeyVault } from '@licensestore/platform/key-vault';
import { conditionWaits } from '../../../test/support/condition-waits.js';

const metadata = (actor: 'customer' | 'admin'): NewEventMetadata => ({
  actor: { type: actor, id: 'test' },
  correlationId: randomUUID(),
  causationId: 'test',
});

export async function createProduct(
  eventStore: EventStore,
  name: string,
  category: string,
  download: { downloadUrl?: string; installationNotes?: string } = {},
): Promise<string> {
  const productId = randomUUID();
  const fields = {
    ...download,
    name,
    description: `${name}, for tests`,
    imageUrl: '/images/test.png',
    category,
    platform: 'Windows',
    regularPrice: '99.00',
    salePrice: null,
    featured: false,
    inStock: true,
  };
  await handleCommand(
    eventStore,
    productStream(productId),
    productDecider,
    { type: 'CreateProduct', productId, fields, now: new Date().toISOString() },
    metadata('admin'),
  );
  return productId;
}

/** A captured order, as checkout places it; COMPLETED makes it paid (processing), PENDING waits for the payment. */
export async function placeOrder(
  eventStore: EventStore,
  items: readonly { productId: string; productName?: string; quantity?: number }[],
  options: {
    captureStatus?: 'COMPLETED' | 'PENDING';
    customer?: { name: string; email: string };
    /** When the capture happened; now by default. */
    capturedAt?: string;
    /** The risk rules that hold it for review; none by default. */
    heldFor?: RiskRuleName[];
    /** When a held order is approved unless decided before; never by default. */
    autoApproveAt?: string;
  } = {},
): Promise<string> {
  const orderId = randomUUID();
  const lines = items.map(({ productId, productName = 'Test Product', quantity = 1 }) => ({
    lineId: randomUUID(),
    productId,
    productName,
    quantity,
    unitPrice: '10.00',
    lineTotal: `${10 * quantity}.00`,
  }));
  await handleCommand(
    eventStore,
    orderStream(orderId),
    orderDecider,
    {
      type: 'PlaceCapturedOrder',
      orderId,
      paypalOrderId: `PAYPAL-${orderId}`,
      captureId: `CAPTURE-${orderId}`,
      captureStatus: options.captureStatus ?? 'COMPLETED',
      customer: options.customer ?? { name: 'Ada Lovelace', email: `ada-${orderId.slice(0, 8)}@example.com` },
      lines,
      total: `${lines.reduce((sum, line) => sum + 10 * line.quantity, 0)}.00`,
      currency: 'USD',
      heldFor: options.heldFor ?? [],
      autoApproveAt: options.autoApproveAt ?? null,
      now: options.capturedAt ?? new Date().toISOString(),
    },
    metadata('customer'),
  );
  return orderId;
}

/** Sets an order's status as an admin does (cancelling releases its keys; reopening a cancelled one serves it again). */
export async function setOrderStatus(
  eventStore: EventStore,
  orderId: string,
  to: 'pending' | 'completed' | 'cancelled',
): Promise<void> {
  await handleCommand(
    eventStore,
    orderStream(orderId),
    orderDecider,
    { type: 'ChangeOrderStatus', orderId, to, now: new Date().toISOString() },
    metadata('admin'),
  );
}

/** Adds `count` new keys (sealed) to a product's inventory; returns them in clear, in the order they were added. */
export async function addKeys(
  eventStore: EventStore,
  keyVault: KeyVault,
  productId: string,
  count: number,
  lowStockThreshold = 0,
): Promise<string[]> {
  const clear = Array.from({ length: count }, () => randomUUID().toUpperCase());
  await handleCommand(
    eventStore,
    licenseKeysStream(productId),
    inventoryDecider,
    {
      type: 'AddLicenseKeys',
      productId,
      keys: clear.map((key) => ({
        keyId: randomUUID(),
        key: keyVault.seal(key),
        fingerprint: keyVault.fingerprint(key),
      })),
      lowStockThreshold,
      now: new Date().toISOString(),
    },
    metadata('admin'),
  );
  return clear;
}

/** Follows the whole log from the start, so a test can wait for what the workers record. */
export function watchLog(eventStore: EventStore) {
  const events: RecordedEvent[] = [];
  const waits = conditionWaits();
  const stop = new AbortController();
  let failure: unknown = null;
  const running = (async () => {
    try {
      for await (const event of eventStore.subscribeAll(null, stop.signal)) {
        events.push(recordedOrThrow(event));
        waits.changed();
      }
    } catch (error) {
      failure = error;
      waits.changed();
    }
  })();
  const ofType = (type: string) => events.filter((event) => event.type === type);
  return {
    events,
    ofType,
    /** Resolves once `condition` holds for the events so far; rejects after `timeoutMs`, naming `what`. */
    until: (what: string, condition: (log: { ofType: typeof ofType }) => boolean, timeoutMs?: number) =>
      waits.until(
        what,
        () => {
          if (failure) throw failure;
          return condition({ ofType });
        },
        timeoutMs,
      ),
    async close() {
      stop.abort();
      await running;
    },
  };
}

export type LogWatch = ReturnType<typeof watchLog>;

/**
 * Records fresh keys for every unit of a placed order, as record-order-keys would, without any inventory; returns
 * the keys in clear and the id of the OrderFulfilled event (the delivery e-mail's trigger).
 */
export async function fulfilOrder(eventStore: EventStore, keyVault: KeyVault, orderId: string) {
  const { state } = await loadStream(eventStore, orderStream(orderId), orderDecider);
  if (state.status === 'absent') throw new Error(`order ${orderId} was never placed`);
  const keys: string[] = [];
  for (const line of state.lines) {
    const clear = Array.from({ length: line.quantity }, () => randomUUID().toUpperCase());
    keys.push(...clear);
    await handleCommand(
      eventStore,
      orderStream(orderId),
      orderDecider,
      {
        type: 'RecordLicenseKeys',
        orderId,
        lineId: line.lineId,
        keys: clear.map((key) => ({ keyId: randomUUID(), key: keyVault.seal(key) })),
        now: new Date().toISOString(),
      },
      metadata('admin'),
    );
  }
  const { causes } = await loadStream(eventStore, orderStream(orderId), orderDecider);
  return { keys, trigger: causes.get('OrderFulfilled')?.eventId as string };
}

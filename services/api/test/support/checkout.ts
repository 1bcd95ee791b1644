import { randomUUID } from 'node:crypto';
import {
  type AssignedKey,
  inventoryDecider,
  licenseKeysStream,
  orderDecider,
  orderStream,
  productDecider,
  productStream,
} from '@licensestore/domain';
import { handleCommand } from '@licensestore/domain/commands';
import type { EventStore, NewEventMetadata, RecordedEvent } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { waitForProjections } from '@licensestore/platform/readmodel';

export interface SeedProduct {
  name?: string;
  regularPrice?: string;
  salePrice?: string | null;
  inStock?: boolean;
}

/** Creates a product through its decider, as an admin would, and waits until the catalogue read table has it. */
export async function seedProduct(
  eventStore: EventStore,
  database: DatabaseHandle,
  fields: SeedProduct = {},
): Promise<string> {
  const productId = randomUUID();
  const outcome = await handleCommand(
    eventStore,
    productStream(productId),
    productDecider,
    {
      type: 'CreateProduct',
      productId,
      fields: {
        name: fields.name ?? `License ${productId.slice(0, 8)}`,
        description: 'A license.',
        imageUrl: '/images/products/windows-11-pro.svg',
        category: 'Windows',
        platform: 'Windows',
        regularPrice: fields.regularPrice ?? '100.00',
        salePrice: fields.salePrice ?? null,
        featured: false,
        inStock: fields.inStock ?? true,
      },
      now: new Date().toISOString(),
    },
    { actor: { type: 'admin', id: 'test' }, correlationId: 'seed', causationId: 'seed' },
  );
  if (outcome.appended) {
    const seen = await waitForProjections(database.pool, outcome.appended.position, {
      projectors: ['products'],
      timeoutMs: 10_000,
    });
    if (!seen) throw new Error('the products projection did not catch up');
  }
  return productId;
}

export async function readEvents(eventStore: EventStore, stream: string): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const event of eventStore.readStream(stream)) events.push(event);
  return events;
}

/** Every event of a type in the whole store whose data has `field` = `value` (e.g. orders of one PayPal order). */
export async function eventsWhere(
  database: DatabaseHandle,
  type: string,
  field: string,
  value: string,
): Promise<Array<{ stream_id: string; data: Record<string, unknown> }>> {
  const { rows } = await database.pool.query<{ stream_id: string; data: Record<string, unknown> }>(
    `SELECT stream_id, data FROM event_store.events WHERE event_type = $1 AND data->>$2 = $3 ORDER BY global_position`,
    [type, field, value],
  );
  return rows;
}

/**
 * What the assign-keys and record-order-keys jobs do for one order line: it asks its product's inventory for
 * `quantity` keys, and the order records those it was given. Returns them (ids and sealed keys) and the position of
 * the last append.
 */
export async function requestAndRecordKeys(
  eventStore: EventStore,
  orderId: string,
  line: { lineId: string; productId: string },
  {
    quantity,
    lowStockThreshold,
    metadata,
  }: { quantity: number; lowStockThreshold: number; metadata: NewEventMetadata },
) {
  const asked = await handleCommand(
    eventStore,
    licenseKeysStream(line.productId),
    inventoryDecider,
    {
      type: 'RequestLicenseKeys',
      productId: line.productId,
      orderId,
      lineId: line.lineId,
      quantity,
      lowStockThreshold,
      now: new Date().toISOString(),
    },
    metadata,
  );
  let position = asked.position;
  const keys: AssignedKey[] = [];
  for (const event of asked.events) {
    if (event.type !== 'LicenceKeysAssigned' || event.data.orderId !== orderId) continue;
    const recorded = await handleCommand(
      eventStore,
      orderStream(orderId),
      orderDecider,
      {
        type: 'RecordLicenseKeys',
        orderId,
        lineId: event.data.lineId,
        keys: event.data.keys,
        now: new Date().toISOString(),
      },
      metadata,
    );
    position = recorded.position;
    keys.push(...event.data.keys);
  }
  return { keys, position };
}

/**
 * One key for the order's first line, as the jobs deliver it under the order's correlation id; waits until the
 * orders read table has it. Returns the keys assigned (ids and sealed keys).
 */
export async function deliverKeys(eventStore: EventStore, database: DatabaseHandle, orderId: string) {
  const [captured] = await readEvents(eventStore, orderStream(orderId));
  const { lines } = (captured?.data ?? {}) as { lines: Array<{ lineId: string; productId: string }> };
  const { keys, position } = await requestAndRecordKeys(
    eventStore,
    orderId,
    lines[0] as (typeof lines)[number],
    {
      quantity: 1,
      lowStockThreshold: 0,
      metadata: {
        actor: { type: 'system', id: 'workers' },
        correlationId: captured?.metadata.correlationId ?? 'test',
        causationId: captured?.id ?? 'test',
      },
    },
  );
  if (keys.length === 0) throw new Error('no key was assigned');
  const seen = await waitForProjections(database.pool, position ?? '', {
    projectors: ['orders'],
    timeoutMs: 10_000,
  });
  if (!seen) throw new Error('the orders projection did not catch up');
  return keys;
}

/** What the send-delivery-email job records once the mail server took the order's e-mail, sent for its capture. */
export async function recordDeliveryEmailSent(
  eventStore: EventStore,
  orderId: string,
  { recipient, messageId }: { recipient: string; messageId: string },
) {
  const [captured] = await readEvents(eventStore, orderStream(orderId));
  return handleCommand(
    eventStore,
    orderStream(orderId),
    orderDecider,
    {
      type: 'RecordDeliveryEmailSent',
      orderId,
      trigger: captured?.id as string,
      recipient,
      messageId,
      now: new Date().toISOString(),
    },
    { actor: { type: 'system', id: 'workers' }, correlationId: 'test', causationId: 'test' },
  );
}

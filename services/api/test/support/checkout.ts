import { randomUUID } from 'node:crypto';
import { productDecider, productStream } from '@licensestore/shared';
import { handleCommand } from '@licensestore/shared/commands';
import type { DatabaseHandle } from '@licensestore/shared/db';
import type { EventStore, RecordedEvent } from '@licensestore/shared/eventstore';
import { waitForProjections } from '@licensestore/shared/readmodel';

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
        name: fields.name ?? `Licence ${productId.slice(0, 8)}`,
        description: 'A licence.',
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
    { actor: { type: 'admin', id: 'test' }, correlationId: 'seed', causationId: 'seed', schemaVersion: 1 },
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

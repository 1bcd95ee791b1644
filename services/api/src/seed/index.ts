import { createHash, randomInt, randomUUID } from 'node:crypto';
import {
  IllegalStateError,
  inventoryDecider,
  licenseKeysStream,
  productDecider,
  productStream,
} from '@licensestore/domain';
import { handleCommand } from '@licensestore/domain/commands';
import {
  type EventStore,
  type NewEventMetadata,
  type Position,
  streamCategory,
  WrongExpectedRevisionError,
} from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import { timeOrderedId, uuidText } from '@licensestore/platform/ids';
import type { KeyVault } from '@licensestore/platform/key-vault';
import { type Kysely, sql } from 'kysely';
import { type DemoProduct, demoProducts, productImageUrl } from './catalogue.js';
import { testimonialsAsOf } from './testimonials.js';

export { type DemoProduct, demoProducts, productImageUrl } from './catalogue.js';
export { demoTestimonials, testimonialsAsOf } from './testimonials.js';

// Fixed namespace for the demo products' name-based (v5) ids.
const DEMO_NAMESPACE = 'b6f1c1c8-6d3c-4c36-9f5e-3d1f8a0e2a77';

/** A UUID v5 (RFC 9562) of `name`: the same slug always gives the same product id. */
export function nameBasedUuid(name: string, namespace = DEMO_NAMESPACE): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name)
    .digest();
  return uuidText(hash, 5);
}

export const demoProductId = (product: Pick<DemoProduct, 'slug'>) => nameBasedUuid(`product:${product.slug}`);

/** License keys each in-stock demo product starts with, so a demo purchase is delivered at once. */
export const DEMO_KEYS_PER_PRODUCT = 20;

export interface SeedResult {
  productsCreated: number;
  /** Demo license keys added (clearly fake: `DEMO-…`). */
  keysAdded: number;
  testimonialsInserted: number;
  /** Position of the last event the seed appended: wait for the projections to pass it before serving. */
  lastPosition: Position | null;
}

export interface SeedOptions {
  store: EventStore;
  db: Kysely<Database>;
  /** Seals the demo license keys. */
  keyVault: KeyVault;
  log?: (line: string) => void;
  now?: Date;
}

/**
 * Fills an empty store with the demo catalogue and testimonials.
 *
 * Idempotent and safe when two processes start at once: product ids derive from fixed slugs, and each product is
 * created through the real command path with expected revision `no_stream`, so a second writer's create fails as
 * "already exists" and is skipped. A store that already has products of its own (and never began the demo seed)
 * is left alone.
 */
export async function seedDemoStore({
  store,
  db,
  keyVault,
  log = () => {},
  now = new Date(),
}: SeedOptions): Promise<SeedResult> {
  const runId = timeOrderedId();
  const metadata: NewEventMetadata = {
    actor: { type: 'system', id: 'seed' },
    correlationId: runId,
    causationId: runId,
  };
  const products = await seedProducts(store, now, metadata, log);
  const keys = products.demo
    ? await seedKeys(store, keyVault, now, metadata)
    : { added: 0, lastPosition: null };
  const testimonialsInserted = await seedTestimonials(db, now);
  if (products.created > 0 || keys.added > 0 || testimonialsInserted > 0) {
    log(
      `seeded the demo store: ${products.created} products, ${keys.added} license keys, ${testimonialsInserted} testimonials`,
    );
  }
  return {
    productsCreated: products.created,
    keysAdded: keys.added,
    testimonialsInserted,
    lastPosition: keys.lastPosition ?? products.lastPosition,
  };
}

async function seedProducts(
  store: EventStore,
  now: Date,
  metadata: NewEventMetadata,
  log: (line: string) => void,
) {
  const first = demoProducts[0];
  // The first demo product is created first, so its stream says whether a demo seed ever began (a seed cut
  // short by a crash is completed on the next start).
  const begun = first ? await streamExists(store, productStream(demoProductId(first))) : true;
  if (!begun && (await hasProductEvents(store))) {
    log('the store already has products: demo catalogue not seeded');
    return { demo: false, created: 0, lastPosition: null };
  }
  let created = 0;
  let lastPosition: Position | null = null;
  for (const [index, product] of demoProducts.entries()) {
    const productId = demoProductId(product);
    // One second apart, so "newest first" lists keep the catalogue's order.
    const createdAt = new Date(now.getTime() - (demoProducts.length - index) * 1000).toISOString();
    try {
      const outcome = await handleCommand(
        store,
        productStream(productId),
        productDecider,
        {
          type: 'CreateProduct',
          productId,
          fields: { ...product.fields, imageUrl: productImageUrl(product.slug) },
          now: createdAt,
        },
        metadata,
      );
      if (outcome.appended) {
        created++;
        lastPosition = outcome.appended.position;
      }
    } catch (error) {
      // Created earlier, by another process starting at the same time, or deleted by an admin since: keep it so.
      if (!(error instanceof IllegalStateError)) throw error;
    }
  }
  return { demo: true, created, lastPosition };
}

const KEY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const demoKey = () =>
  `DEMO-${Array.from({ length: 4 }, () =>
    Array.from({ length: 5 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join(''),
  ).join('-')}`;

/**
 * Stocks each in-stock demo product whose inventory never existed. `no_stream` makes it once: a second process
 * seeding at the same time, or a later start, finds the stream and adds nothing.
 */
async function seedKeys(store: EventStore, keyVault: KeyVault, now: Date, metadata: NewEventMetadata) {
  let added = 0;
  let lastPosition: Position | null = null;
  for (const product of demoProducts.filter((candidate) => candidate.fields.inStock)) {
    const productId = demoProductId(product);
    const keys = Array.from({ length: DEMO_KEYS_PER_PRODUCT }, () => {
      const key = demoKey();
      return {
        keyId: randomUUID(),
        key: keyVault.seal(key),
        fingerprint: keyVault.fingerprint(key),
        tailHash: keyVault.tailHash(key),
      };
    });
    const events = inventoryDecider.decide(
      { type: 'AddLicenseKeys', productId, keys, lowStockThreshold: 0, now: now.toISOString() },
      inventoryDecider.initialState,
    );
    try {
      const appended = await store.append(
        licenseKeysStream(productId),
        events.map((event) => ({ type: event.type, data: event.data, metadata })),
        'no_stream',
      );
      added += keys.length;
      lastPosition = appended.position;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  return { added, lastPosition };
}

async function streamExists(store: EventStore, stream: string): Promise<boolean> {
  for await (const _event of store.readStream(stream)) return true;
  return false;
}

/** Walks the log until the first product event; on a fresh store that is one empty read. */
async function hasProductEvents(store: EventStore): Promise<boolean> {
  let after: Position | null = null;
  for (;;) {
    const batch = await store.readAll(after, 500);
    if (batch.some((event) => streamCategory(event.streamId) === 'product')) return true;
    const last = batch.at(-1);
    if (!last) return false;
    after = last.position;
  }
}

/** Inserts the testimonials into an empty table; the advisory lock makes two concurrent starts insert once. */
async function seedTestimonials(db: Kysely<Database>, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended('seed:testimonials', 0))`.execute(trx);
    const { count } = await trx
      .selectFrom('testimonials')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    if (Number(count) > 0) return 0;
    const testimonials = testimonialsAsOf(now);
    await trx
      .insertInto('testimonials')
      .values(
        testimonials.map((t) => ({
          id: t.id,
          customer_name: t.customerName,
          rating: t.rating,
          comment: t.comment,
          location: t.location,
          date: t.date,
        })),
      )
      .execute();
    return testimonials.length;
  });
}

import {
  evolveProduct,
  initialProductState,
  type ProductChanges,
  type ProductEvent,
  type ProductFields,
  type ProductState,
  parseProductEvent,
  productStream,
} from '@licensestore/domain';
import {
  type ExpectedRevision,
  eventVersions,
  type NewEventMetadata,
  type RecordedEvent,
} from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import { appendManyWith, notifyAppended } from '@licensestore/platform/eventstore';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { ProductRow } from '../../src/products/projector.js';

/** Small, fast, seedable PRNG (mulberry32): the same seed gives the same catalogue history. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const uuid = () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = (8 + Math.floor(next() * 4)).toString(16);
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  };
  return { next, int, pick, uuid };
}

/** The time of a seeded history: from `start`, each reading a random 1 to `maxStepSeconds` seconds after the last. */
export function seededClock(rnd: ReturnType<typeof random>, start: string, maxStepSeconds: number) {
  let clock = Date.parse(start);
  return () => {
    clock += rnd.int(1, maxStepSeconds) * 1000;
    return new Date(clock).toISOString();
  };
}

const FAMILIES = [
  {
    names: [
      'Microsoft Office 2021 Professional Plus',
      'Microsoft Office 2024 Home & Business',
      'Microsoft Project 2021 Professional',
      'Microsoft Visio 2021 Standard',
    ],
    category: 'Office',
    platforms: ['Windows', 'Windows/Mac'],
    price: [49, 249],
  },
  {
    names: ['Windows 11 Pro', 'Windows 11 Home', 'Windows 10 Pro', 'Windows Server 2022 Standard'],
    category: 'Windows',
    platforms: ['Windows'],
    price: [19, 399],
  },
  {
    names: ['Norton 360 Deluxe', 'Norton 360 Premium', 'Norton AntiVirus Plus', 'Norton Secure VPN'],
    category: 'Norton Security',
    platforms: ['Windows/Mac', 'Windows/Mac/Android/iOS'],
    price: [19, 99],
  },
  {
    names: [
      'Adobe Acrobat Pro',
      'Adobe Photoshop Elements 2025',
      'Adobe Premiere Elements 2025',
      'Adobe Creative Cloud All Apps',
    ],
    category: 'Adobe',
    platforms: ['Windows', 'Mac', 'Windows/Mac'],
    price: [69, 699],
  },
  {
    names: [
      'Kaspersky Total Security',
      'ESET Smart Security Premium',
      'Bitdefender Total Security',
      'Malwarebytes Premium',
    ],
    category: 'Antivirus',
    platforms: ['Windows', 'Windows/Mac/Android'],
    price: [15, 89],
  },
  {
    names: [
      'Parallels Desktop 20',
      'VMware Workstation Pro 17',
      'WinRAR',
      'Acronis Cyber Protect Home Office',
    ],
    category: 'Utilities',
    platforms: ['Windows', 'Mac'],
    price: [25, 199],
  },
] as const;

const TERMS = [
  '1 PC, lifetime license',
  '1 user, 1 year',
  '3 devices, 1 year',
  '5 devices, 1 year',
  'retail key, lifetime',
];

const amount = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

export const metadata: NewEventMetadata = {
  actor: { type: 'admin', id: 'admin' },
  correlationId: 'catalogue-history',
  causationId: 'catalogue-history',
};

export interface CatalogueAppend {
  stream: string;
  expected: ExpectedRevision;
  events: ProductEvent[];
}

export interface CatalogueHistory {
  /** How many products are created (each first, in one append with a few early edits). */
  products: number;
  /** Total events, creations included. */
  events: number;
  /** Share of update runs that end the product instead (deletions). */
  deleteShare?: number;
  /** Longest run of edits to one product in one append call. */
  maxRun?: number;
  seed?: number;
  /** Time of the first event; later ones follow a second apart. */
  start?: Date;
}

/**
 * A believable catalogue history: products created with realistic fields, then runs of admin edits (price
 * changes, sales starting and ending, stock and featured toggles, the odd rename), some deletions.
 * Yields append calls in log order, each with the stream's exact expected revision.
 */
export function* catalogueHistory(options: CatalogueHistory): Generator<CatalogueAppend> {
  const rnd = random(options.seed ?? 1);
  const maxRun = options.maxRun ?? 10;
  const deleteShare = options.deleteShare ?? 0.002;
  let clock = (options.start ?? new Date('2025-01-01T00:00:00Z')).getTime();
  const now = () => {
    clock += 1000;
    return new Date(clock).toISOString();
  };
  const live: { id: string; revision: bigint; fields: ProductFields }[] = [];
  let emitted = 0;

  const edit = (fields: ProductFields): ProductChanges => {
    const roll = rnd.next();
    const regular = Math.round(Number(fields.regularPrice) * 100);
    if (roll < 0.3) return { regularPrice: amount(Math.max(499, regular + rnd.int(-15, 15) * 100)) };
    if (roll < 0.5) return { salePrice: amount(Math.round((regular * rnd.int(50, 90)) / 100)) };
    if (roll < 0.6) return { salePrice: null };
    if (roll < 0.78) return { inStock: !fields.inStock };
    if (roll < 0.9) return { featured: !fields.featured };
    if (roll < 0.96) return { name: `${fields.name.replace(/ \(.*\)$/, '')} (${rnd.pick(TERMS)})` };
    if (roll < 0.99)
      return { description: `${fields.description.split(' Updated')[0]} Updated ${now().slice(0, 10)}.` };
    return {
      imageUrl: `/uploads/products/${rnd.uuid()}.webp`,
      platform: rnd.pick(['Windows', 'Mac', 'Windows/Mac']),
    };
  };

  const updates = (product: (typeof live)[number], count: number): ProductEvent[] =>
    Array.from({ length: count }, () => {
      const changes = edit(product.fields);
      product.fields = { ...product.fields, ...changes };
      return { type: 'ProductUpdated', data: { productId: product.id, changes, updatedAt: now() } };
    });

  for (let i = 0; i < options.products && emitted < options.events; i++) {
    const family = rnd.pick(FAMILIES);
    const name = rnd.pick(family.names);
    const regular = rnd.int(family.price[0], family.price[1]) * 100 + rnd.pick([0, 49, 95, 99]);
    const fields: ProductFields = {
      name: `${name} (${rnd.pick(TERMS)})`,
      description: `${name} genuine license key, delivered by e-mail within minutes of payment. Activates online with the official installer; includes free updates for the licensed version and support by e-mail. ${rnd.pick(TERMS)}.`,
      imageUrl: `/uploads/products/${rnd.uuid()}.webp`,
      category: family.category,
      platform: rnd.pick(family.platforms),
      regularPrice: amount(regular),
      salePrice: rnd.next() < 0.3 ? amount(Math.round(regular * 0.8)) : null,
      featured: rnd.next() < 0.1,
      inStock: rnd.next() < 0.95,
    };
    const product = { id: rnd.uuid(), revision: -1n, fields };
    const created: ProductEvent = {
      type: 'ProductCreated',
      data: { productId: product.id, fields, createdAt: now() },
    };
    const events = [created, ...updates(product, Math.min(rnd.int(0, 3), options.events - emitted - 1))];
    live.push(product);
    emitted += events.length;
    yield { stream: productStream(product.id), expected: 'no_stream', events };
    product.revision = BigInt(events.length - 1);
  }

  while (emitted < options.events && live.length > 0) {
    const index = rnd.int(0, live.length - 1);
    const product = live[index] as (typeof live)[number];
    const expected = product.revision;
    let events: ProductEvent[];
    if (rnd.next() < deleteShare) {
      events = [{ type: 'ProductDeleted', data: { productId: product.id, deletedAt: now() } }];
      live[index] = live[live.length - 1] as (typeof live)[number];
      live.pop();
    } else {
      events = updates(product, Math.min(rnd.int(1, maxRun), options.events - emitted));
    }
    emitted += events.length;
    product.revision += BigInt(events.length);
    yield { stream: productStream(product.id), expected, events };
  }
}

/** The next append calls of a history, up to at least `events` events (the history continues where it stopped). */
export function* takeEvents(history: Iterator<CatalogueAppend>, events: number): Generator<CatalogueAppend> {
  let taken = 0;
  while (taken < events) {
    const next = history.next();
    if (next.done) return;
    taken += next.value.events.length;
    yield next.value;
  }
}

/** One append call of any stream's events (a catalogue's, or a whole store's). */
export interface BulkAppend {
  stream: string;
  expected: ExpectedRevision;
  events: ReadonlyArray<{ type: string; data: unknown }>;
}

/**
 * Appends through the event store's batch append, many streams per transaction and several transactions at once
 * (one stream always on the same connection, in order), reading the next transactions' appends while the last ones
 * are written. Returns the number of events appended.
 */
export async function appendInBulk(
  pool: pg.Pool,
  appends: Iterable<BulkAppend>,
  options: { eventsPerTransaction?: number; connections?: number } = {},
): Promise<number> {
  const perTransaction = options.eventsPerTransaction ?? 4000;
  const connections = options.connections ?? 4;
  const iterator = appends[Symbol.iterator]();
  /** The next transactions' appends, a group per connection; a stream's appends all in one group, in order. */
  const nextRound = async () => {
    const groups: BulkAppend[][] = Array.from({ length: connections }, () => []);
    const sizes = new Array<number>(connections).fill(0);
    const owner = new Map<string, number>();
    let taken = 0;
    for (let pulled = 1; taken < perTransaction * connections; pulled++) {
      // A history decided as it is read costs CPU: give the transactions in flight their turns meanwhile.
      if (pulled % 100 === 0) await new Promise(setImmediate);
      const next = iterator.next();
      if (next.done) break;
      const slot = owner.get(next.value.stream) ?? sizes.indexOf(Math.min(...sizes));
      owner.set(next.value.stream, slot);
      groups[slot]?.push(next.value);
      sizes[slot] = (sizes[slot] ?? 0) + next.value.events.length;
      taken += next.value.events.length;
    }
    return { groups: groups.filter((group) => group.length > 0), taken };
  };
  const write = async (group: BulkAppend[]) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await appendManyWith(
        client,
        group.map((append) => ({
          stream: append.stream,
          events: append.events.map((event) => eventVersions.stamp({ ...event, metadata })),
          expected: append.expected,
        })),
      );
      await client.query('COMMIT');
      await notifyAppended(client);
      client.release();
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.release(error as Error);
      throw error;
    }
  };
  let total = 0;
  let round = await nextRound();
  while (round.taken > 0) {
    // The next round is read while this one's transactions run, each after the last has committed.
    const [next] = await Promise.all([nextRound(), Promise.all(round.groups.map(write))]);
    total += round.taken;
    round = next;
  }
  return total;
}

/**
 * The oracle: folds recorded events with the domain's own `evolveProduct` into the rows a correct projection
 * holds, independently of the projector's batching and SQL.
 */
export class ProductOracle {
  private readonly states = new Map<string, { state: ProductState; createdAt: string; updatedAt: string }>();

  /** The product's row after this event (null once it has none); undefined for events that are not products'. */
  apply(recorded: RecordedEvent): ProductRow | null | undefined {
    let event: ProductEvent | null;
    try {
      event = parseProductEvent(recorded.type, recorded.data);
    } catch {
      return undefined;
    }
    if (!event) return undefined;
    const id = event.data.productId;
    const current = this.states.get(id) ?? { state: initialProductState, createdAt: '', updatedAt: '' };
    const state = evolveProduct(current.state, event);
    if (event.type === 'ProductCreated') {
      this.states.set(id, { state, createdAt: event.data.createdAt, updatedAt: event.data.createdAt });
    } else if (event.type === 'ProductUpdated' && current.state.status === 'active') {
      this.states.set(id, { ...current, state, updatedAt: event.data.updatedAt });
    } else {
      this.states.set(id, { ...current, state });
    }
    return this.row(id);
  }

  row(id: string): ProductRow | null {
    const product = this.states.get(id);
    if (product?.state.status !== 'active') return null;
    const f = product.state.fields;
    return {
      id,
      name: f.name,
      description: f.description,
      image_url: f.imageUrl,
      category: f.category,
      platform: f.platform,
      download_url: f.downloadUrl ?? null,
      installation_notes: f.installationNotes ?? null,
      key_format: f.keyFormat ?? null,
      regular_price: f.regularPrice,
      sale_price: f.salePrice ?? null,
      featured: f.featured,
      in_stock: f.inStock,
      created_at: product.createdAt,
      updated_at: product.updatedAt,
    };
  }

  rows(): ProductRow[] {
    return [...this.states.keys()]
      .map((id) => this.row(id))
      .filter((row): row is ProductRow => row !== null)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

export function expectedProducts(events: Iterable<RecordedEvent>): ProductRow[] {
  const oracle = new ProductOracle();
  for (const event of events) oracle.apply(event);
  return oracle.rows();
}

/** Every row of a products table, in id order, in the projector's row shape. */
export async function readProducts(db: Kysely<Database>, schema = 'public'): Promise<ProductRow[]> {
  const { rows } = await sql<
    Omit<ProductRow, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date }
  >`
    SELECT id, name, description, image_url, category, platform, download_url, installation_notes, key_format,
           regular_price::text AS regular_price, sale_price::text AS sale_price, featured, in_stock, created_at,
           updated_at
      FROM ${sql.table(`${schema}.products`)} ORDER BY id`.execute(db);
  return rows.map((row) => ({
    ...row,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }));
}

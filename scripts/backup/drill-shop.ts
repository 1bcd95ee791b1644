import { randomBytes } from 'node:crypto';
import {
  type EventStore,
  type NewEventMetadata,
  type Position,
  recordedOrThrow,
} from '@licensestore/domain/events';
import { waitForProjections } from '@licensestore/platform/readmodel';
import type pg from 'pg';
import { type BenchProduct, type BenchStore, buy, type Purchase } from '../../bench/support/store.js';
import { allProjectors } from '../../projections/src/projectors.js';
import { nextShopperAddress } from '../testing/shoppers.js';

/** How long the store may take to serve what was bought, refund what was refunded, and fall quiet. */
const SETTLE_MS = 180_000;

const _metadata: NewEventMetadata = {
  actor: { type: 'admin', id: 'recovery-drill' },
  correlationId: 'recovery-drill',
  causationId: 'recovery-drill',
};

/** `count` full PayPal purchases, shoppers `from` onwards, `concurrency` at a time; `onBought` after each. */
export async function shop(
  store: BenchStore,
  products: BenchProduct[],
  { from, count, concurrency }: { from: number; count: number; concurrency: number },
  onBought: (done: number) => void = () => {},
): Promise<Purchase[]> {
  const bought: Purchase[] = [];
  let next = from;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < from + count; i = next++) {
        bought.push(await buy(store, products[i % products.length] as BenchProduct, i));
        onBought(bought.length);
      }
    }),
  );
  return bought;
}

async function request(
  url: string,
  init: { method?: string; cookie?: string | undefined; body?: unknown; address?: string },
) {
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': init.address ?? nextShopperAddress(),
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'POST'} ${url}: ${response.status} ${text}`);
  return text === '' ? null : (JSON.parse(text) as unknown);
}

/** A checkout the buyer never approves: the PayPal order is made, and the payment stays pending. */
export async function startPendingPayment(store: BenchStore, product: BenchProduct, shopper: number) {
  await request(`${store.apiUrl}/paypal/order`, {
    body: {
      amount: product.price,
      currency: 'USD',
      intent: 'CAPTURE',
      items: [{ productId: product.id, quantity: 1 }],
      customerName: `Hesitant shopper ${shopper}`,
      customerEmail: `hesitant${shopper}@example.com`,
    },
  });
}

/** A whole-order refund, asked for by the admin (PayPal's answer comes back through the workers). */
export async function refund(store: BenchStore, admin: string, orderId: string): Promise<void> {
  await request(`${store.apiUrl}/api/orders/${orderId}/refunds`, {
    cookie: admin,
    body: { all: true, reason: 'Recovery drill: bought by mistake' },
  });
}

type ItemView = { licenseKeys?: string[]; licenseKeyIds?: string[] };

/** The keys the buyer's browser is shown on the order's page (a showing the log records). */
export async function shownKeys(store: BenchStore, bought: Purchase): Promise<string[]> {
  const items = (await request(`${store.apiUrl}/api/orders/${bought.orderId}/items`, {
    cookie: bought.orderCookie,
  })) as ItemView[];
  return items.flatMap((item) => item.licenseKeys ?? []).sort();
}

/** The admin reveals the order's first key (a reveal the log records); the key in clear. */
export async function revealFirstKey(store: BenchStore, admin: string, orderId: string): Promise<string> {
  const items = (await request(`${store.apiUrl}/api/orders/${orderId}/items`, {
    cookie: admin,
  })) as ItemView[];
  const keyId = items.flatMap((item) => item.licenseKeyIds ?? [])[0];
  if (!keyId) throw new Error(`order ${orderId} shows the admin no key to reveal`);
  const revealed = (await request(`${store.apiUrl}/api/license-keys/${keyId}/reveal`, {
    cookie: admin,
    body: {},
  })) as { licenseKey: string };
  return revealed.licenseKey;
}

/** An image uploaded as the back office uploads one (signed URL, then PUT); its object id and bytes. */
export async function uploadImage(store: BenchStore, admin: string): Promise<{ id: string; bytes: Buffer }> {
  const { uploadURL } = (await request(`${store.apiUrl}/api/objects/upload`, {
    cookie: admin,
    body: {},
  })) as {
    uploadURL: string;
  };
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const bytes = Buffer.concat([png, randomBytes(4096)]);
  const response = await fetch(uploadURL, {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body: bytes,
  });
  if (!response.ok) throw new Error(`PUT ${uploadURL}: ${response.status} ${await response.text()}`);
  const id = new URL(uploadURL).pathname.split('/').at(-1) as string;
  return { id, bytes };
}

/** The image as the store serves it, or null when it does not. */
export async function servedImage(store: BenchStore, id: string): Promise<Buffer | null> {
  const response = await fetch(`${store.apiUrl}/objects/uploads/${id}`);
  return response.ok ? Buffer.from(await response.arrayBuffer()) : null;
}

async function poll<T>(what: string, look: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const found = await look();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${SETTLE_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Until every order named is in the status given and holds its receipt number. */
export async function waitForOrders(pool: pg.Pool, expected: Map<string, 'completed' | 'refunded'>) {
  await poll(`${expected.size} orders served`, async () => {
    const { rows } = await pool.query<{ id: string; status: string; receipt_number: string | null }>(
      'SELECT id::text AS id, status, receipt_number FROM orders WHERE id::text = ANY($1::text[])',
      [[...expected.keys()]],
    );
    const done = rows.filter((row) => row.status === expected.get(row.id) && row.receipt_number !== null);
    return done.length === expected.size ? true : null;
  });
}

/**
 * Until the store has nothing left to do: no job the workers still owe, and every projector at the end of the log.
 * Returns that end.
 */
export async function waitUntilQuiet(pool: pg.Pool, bareStore: EventStore): Promise<Position> {
  let end: Position | null = null;
  const logEnd = async () => {
    for (;;) {
      const batch = await bareStore.readAll(end, 2000);
      const last = batch.at(-1);
      if (last) end = recordedOrThrow(last).position;
      if (batch.length < 2000) return end;
    }
  };
  const owed = async () => (await pool.query('SELECT 1 FROM reactor_job_intents LIMIT 1')).rows.length > 0;
  return poll('the store falling quiet', async () => {
    if (await owed()) return null;
    const head = await logEnd();
    if (head === null) throw new Error('the log is empty');
    const projected = await waitForProjections(pool, head, {
      projectors: allProjectors.map((projector) => projector.name),
      timeoutMs: 1000,
    });
    return projected && !(await owed()) && (await logEnd()) === head ? head : null;
  });
}

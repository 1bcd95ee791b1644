import { randomUUID } from 'node:crypto';
import type { KeyListItem } from '@licensestore/contract/license-keys';
import type { Page } from '@licensestore/contract/paging';
import { maskedKey } from '@licensestore/domain/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshLicenseKey } from '../../../test/support/license-keys.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { deliverKeys } from './support/checkout.js';
import { purchase } from './support/purchase.js';
import { expectReadInOrderThrough } from './support/query-plans.js';

describe('The back office’s list of license keys (GET /api/admin/license-keys)', () => {
  let store: ApiWithReadModel;
  let admin: string;
  let auditor: string;
  let first: string;
  let second: string;
  /** Every key added, in clear, by id. */
  const clear = new Map<string, string>();
  let soldKeyId: string;

  const get = async (query: string, cookie = admin) => {
    const response = await fetch(`${store.api.url}/api/admin/license-keys${query}`, { headers: { cookie } });
    return {
      status: response.status,
      text: await response.text(),
      cacheControl: response.headers.get('cache-control'),
    };
  };
  const page = async (query: string, cookie = admin) => {
    const { status, text } = await get(query, cookie);
    expect(status, text).toBe(200);
    return JSON.parse(text) as Page<KeyListItem>;
  };
  const addKey = async (productId: string) => {
    const key = freshLicenseKey();
    const response = await fetch(`${store.api.url}/api/license-keys`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ productId, key }),
    });
    expect(response.status).toBe(201);
    clear.set(((await response.json()) as { id: string }).id, key);
  };

  beforeAll(async () => {
    store = await startApiWithReadModel();
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
    auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
    first = await store.productWithKeys(0, { name: 'First product' });
    second = await store.productWithKeys(0, { name: 'Second product' });
    for (let index = 0; index < 3; index += 1) await addKey(first);
    for (let index = 0; index < 2; index += 1) await addKey(second);
    const { orderId } = await purchase(store.api.url, second);
    await deliverKeys(store.eventStore, store.database, orderId);
    const sold = await store.database.db
      .selectFrom('license_keys')
      .select('id')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    soldKeyId = sold.id;
  });
  afterAll(async () => {
    await store?.stop();
  });

  it('answers every key masked, to admins and auditors alike, never in clear', async () => {
    for (const cookie of [admin, auditor]) {
      const { status, text, cacheControl } = await get('?limit=100', cookie);
      expect(status).toBe(200);
      expect(cacheControl).toBe('no-store');
      for (const key of clear.values()) expect(text).not.toContain(key);
      const { items } = JSON.parse(text) as Page<KeyListItem>;
      expect(items).toHaveLength(clear.size);
      for (const item of items) expect(item.key).toBe(maskedKey(clear.get(item.id) as string));
    }
  });

  it('pages newest first without repeating or skipping a key, both ways', async () => {
    const all = (await page('?limit=100')).items.map((item) => item.id);
    const seen: string[] = [];
    let current = await page('?limit=2');
    const pages = [current];
    seen.push(...current.items.map((item) => item.id));
    while (current.nextCursor) {
      current = await page(`?limit=2&cursor=${current.nextCursor}`);
      pages.push(current);
      seen.push(...current.items.map((item) => item.id));
    }
    expect(seen).toEqual(all);
    const createdAt = (await page('?limit=100')).items.map((item) => item.createdAt);
    expect([...createdAt].sort().reverse()).toEqual(createdAt);
    const back = await page(`?limit=2&cursor=${pages[pages.length - 1]?.prevCursor}`);
    expect(back.items).toEqual(pages[pages.length - 2]?.items);
  });

  it('filters by product and by status on the server', async () => {
    const ofFirst = await page(`?product=${first}`);
    expect(ofFirst.items.map((item) => item.productName)).toEqual(Array(3).fill('First product'));
    const assigned = await page('?status=assigned');
    expect(assigned.items.map((item) => item.id)).toEqual([soldKeyId]);
    expect(assigned.items[0]).toMatchObject({ status: 'assigned', orderId: expect.any(String) });
    const available = await page(`?product=${second}&status=available`);
    expect(available.items.map((item) => item.id)).toEqual(
      [...clear.keys()].filter((id) => id !== soldKeyId && !ofFirst.items.some((item) => item.id === id)),
    );
  });

  it('finds a key by its last 4 characters or by the whole key, case and spaces aside, opening none', async () => {
    const [id, key] = [...clear][3] as [string, string];
    for (const q of [key.slice(-4), key.slice(-4).toLowerCase(), ` ${key.toLowerCase()} `]) {
      const found = await page(`?q=${encodeURIComponent(q)}`);
      expect({ q, ids: found.items.map((item) => item.id) }).toEqual({ q, ids: [id] });
    }
    expect((await page(`?q=${encodeURIComponent(key.slice(-4))}&product=${first}`)).items).toEqual([]);
    expect((await page('?q=ZZZZZZZZZZZZ')).items).toEqual([]);
  });

  it('refuses malformed filters and paging with a 400 naming the parameter', async () => {
    for (const [query, parameter] of [
      ['?product=nope', 'product'],
      ['?status=lost', 'status'],
      ['?limit=0', 'limit'],
      ['?cursor=garbage', 'cursor'],
      ['?q=ab1', 'q'],
    ]) {
      const { status, text } = await get(query as string);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(JSON.parse(text).error).toContain(parameter);
    }
  });

  it('is the back office’s only: a visitor is asked to sign in, a customer refused', async () => {
    const customer = await store.api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
    expect((await get('', '')).status).toBe(401);
    expect((await get('', customer)).status).toBe(403);
  });

  it('reads each filter combination through an index, already in order', async () => {
    const cases: Array<[string, string]> = [
      ['TRUE', 'license_keys_added_idx'],
      [`product_id = '${first}'`, 'license_keys_product_added_idx'],
      [`status = 'available'`, 'license_keys_status_added_idx'],
      [`product_id = '${first}' AND status = 'available'`, 'license_keys_product_status_added_idx'],
      [`tail_hash = '${'0'.repeat(64)}'`, 'license_keys_tail_added_idx'],
    ];
    for (const [filter, index] of cases) {
      await expectReadInOrderThrough(
        store.database.pool,
        `SELECT id FROM license_keys WHERE ${filter}
           AND (added_at, id) < (now(), '${randomUUID()}') ORDER BY added_at DESC, id DESC LIMIT 26`,
        index,
      );
    }
  });
});

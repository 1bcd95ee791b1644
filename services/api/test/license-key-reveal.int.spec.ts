import { randomUUID } from 'node:crypto';
import { licenseKeysStream, orderCustodyStream, orderStream } from '@licensestore/domain';
import { maskedKey } from '@licensestore/domain/audit';
import type { KeyHistoryView } from '@licensestore/domain/key-history';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshLicenseKey } from '../../../test/support/license-keys.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { deliverKeys, readEvents } from './support/checkout.js';
import { purchase } from './support/purchase.js';

const HEX64 = /^[0-9a-f]{64}$/;

interface AddedKey {
  id: string;
  key: string;
}

describe('Opening one key from the inventory', () => {
  let store: ApiWithReadModel;
  let admin: string;
  let adminId: string;
  let auditor: string;
  let productId: string;
  let stock: AddedKey;
  let sold: { keyId: string; key: string; orderId: string };

  const call = (method: string, path: string, cookie?: string, body?: unknown) =>
    fetch(`${store.api.url}${path}`, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const reveal = (keyId: string, cookie: string) => call('POST', `/api/license-keys/${keyId}/reveal`, cookie);
  const eventsOf = async (stream: string, type: string) =>
    (await readEvents(store.eventStore, stream)).filter((event) => event.type === type);
  const addKey = async (): Promise<AddedKey> => {
    const key = freshLicenseKey();
    const response = await call('POST', '/api/license-keys', admin, { productId, key });
    expect(response.status).toBe(201);
    return { id: ((await response.json()) as { id: string }).id, key };
  };

  beforeAll(async () => {
    store = await startApiWithReadModel();
    adminId = randomUUID();
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: adminId });
    auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
    productId = await store.productWithKeys(1);
    const { orderId } = await purchase(store.api.url, productId);
    await deliverKeys(store.eventStore, store.database, orderId);
    const [assigned] = await eventsOf(orderStream(orderId), 'OrderLicenceKeysAssigned');
    if (!assigned) throw new Error('no key was recorded on the order');
    const [first] = (assigned.data as { keys: Array<{ keyId: string; key: string }> }).keys;
    sold = { keyId: first?.keyId as string, key: store.api.keyVault.open(first?.key as string), orderId };
    stock = await addKey();
  });
  afterAll(async () => {
    await store?.stop();
  });

  describe('a stock key', () => {
    it('is answered in clear to an admin with its showing already on the inventory stream', async () => {
      const response = await reveal(stock.id, admin);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({ keyId: stock.id, licenseKey: stock.key });
      const recorded = await eventsOf(licenseKeysStream(productId), 'LicenceKeyRevealed');
      expect(recorded.map((event) => event.data)).toEqual([
        expect.objectContaining({
          productId,
          keyId: stock.id,
          viewer: { type: 'admin', id: adminId },
          clientHash: expect.stringMatching(HEX64),
        }),
      ]);
      expect(recorded[0]?.metadata.actor).toEqual({ type: 'admin', id: adminId });
    });

    it("is a step of the key's history: revealed by the admin in the back office, the key masked", async () => {
      const [shown] = await eventsOf(licenseKeysStream(productId), 'LicenceKeyRevealed');
      expect(
        await waitForProjections(store.database.pool, shown?.position ?? '', {
          projectors: ['key-history', 'license-keys'],
          timeoutMs: 10_000,
        }),
      ).toBe(true);
      const response = await call('GET', `/api/license-keys/${stock.id}/history`, admin);
      const history = (await response.json()) as KeyHistoryView;
      expect(history).toMatchObject({ keyId: stock.id, key: maskedKey(stock.key), status: 'available' });
      expect(history.entries.map((entry) => entry.kind)).toEqual(['imported', 'revealed']);
      expect(history.entries[1]?.details).toEqual({
        channel: 'admin-reveal',
        viewer: { type: 'admin', id: adminId },
        clientHash: expect.stringMatching(HEX64),
      });
    });
  });

  describe('a key an order holds', () => {
    it("is recorded on the order's custody stream, as the order page's reveal is, once an hour", async () => {
      const before = (await eventsOf(orderCustodyStream(sold.orderId), 'LicenceKeysRevealed')).length;
      const response = await reveal(sold.keyId, admin);
      expect(await response.json()).toEqual({ keyId: sold.keyId, licenseKey: sold.key });
      expect((await reveal(sold.keyId, admin)).status).toBe(200);
      expect(await eventsOf(orderStream(sold.orderId), 'LicenceKeysRevealed')).toEqual([]);
      const recorded = (await eventsOf(orderCustodyStream(sold.orderId), 'LicenceKeysRevealed')).slice(
        before,
      );
      expect(recorded.map((event) => event.data)).toEqual([
        expect.objectContaining({
          orderId: sold.orderId,
          keyIds: [sold.keyId],
          channel: 'admin-reveal',
          viewer: { type: 'admin', id: adminId },
        }),
      ]);
    });
  });

  describe('refusals', () => {
    it('opens nothing for an auditor (403), a visitor (401), or a key that does not exist (404)', async () => {
      const before = (await readEvents(store.eventStore, licenseKeysStream(productId))).length;
      const refused = await reveal(stock.id, auditor);
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain(stock.key);
      expect((await call('POST', `/api/license-keys/${stock.id}/reveal`)).status).toBe(401);
      expect((await reveal(randomUUID(), admin)).status).toBe(404);
      expect((await reveal('not-a-key', admin)).status).toBe(404);
      expect((await readEvents(store.eventStore, licenseKeysStream(productId))).length).toBe(before);
    });
  });

  describe('when the showing cannot be recorded', () => {
    it('answers no key in clear (503), for a stock key and for an order’s key alike', async () => {
      await store.database.pool.query(`
        CREATE FUNCTION event_store.refuse_reveals() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.event_type IN ('LicenceKeyRevealed', 'LicenceKeysRevealed') THEN
            RAISE EXCEPTION 'reveals refused by the test';
          END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER refuse_reveals BEFORE INSERT ON event_store.events
          FOR EACH ROW EXECUTE FUNCTION event_store.refuse_reveals();`);
      // Another admin: the first one's reveal of the sold key is recorded for this hour already.
      const another = await store.api.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
      try {
        for (const { keyId, key } of [
          { keyId: stock.id, key: stock.key },
          { keyId: sold.keyId, key: sold.key },
        ]) {
          const response = await reveal(keyId, another);
          const text = await response.text();
          expect(response.status).toBe(503);
          expect(JSON.parse(text)).toEqual({
            error: 'The license keys cannot be shown right now; please try again in a moment',
          });
          expect(text).not.toContain(key);
        }
      } finally {
        await store.database.pool.query(`
          DROP TRIGGER refuse_reveals ON event_store.events;
          DROP FUNCTION event_store.refuse_reveals();`);
      }
      expect((await reveal(stock.id, admin)).status).toBe(200);
      expect((await reveal(sold.keyId, another)).status).toBe(200);
    });
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import type { ImportedKeysView, LicenseKeyView } from '@licensestore/contract/license-keys';
import {
  formatCents,
  inventoryDecider,
  licenseKeysStream,
  type OrderLine,
  orderDecider,
  orderStream,
  productDecider,
  productStream,
} from '@licensestore/domain';
import { handleCommand } from '@licensestore/domain/commands';
import type { EventStore, NewEventMetadata, Position } from '@licensestore/domain/events';
import type { DatabaseHandle } from '@licensestore/platform/db';
import { MAX_APPEND_BYTES } from '@licensestore/platform/eventstore';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshLicenseKey } from '../../../test/support/license-keys.js';
import { KEY_NOT_PRINTABLE, KEY_TOO_LONG } from '../src/license-keys/key-text.js';
import { signIn, startTestApi, type TestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { readEvents, requestAndRecordKeys, seedProduct } from './support/checkout.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const LOW_STOCK_THRESHOLD = 3;
const READ_MODELS = ['products', 'orders', 'license-keys', 'dashboard'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DUPLICATE = 'This license key is already in the inventory';
/** Why an import skipped a key the stock already holds: an answer, not a refusal. */
const ALREADY_IN_STOCK = 'Already in stock';
const BOTH_REQUIRED = 'Product and license key are both required';
const DEFAULT_FORMAT = 'XXXXX-XXXXX-XXXXX-XXXXX-XXXXX';
const NOT_IN_FORMAT = `Not a key in this product's format ${DEFAULT_FORMAT}`;

/** What the workers would write, written by the test instead. */
const system: NewEventMetadata = {
  actor: { type: 'system', id: 'test' },
  correlationId: 'test',
  causationId: 'test',
};

/** An import's answer when every key was new. */
const allAdded = (added: number): ImportedKeysView => ({
  added,
  alreadyInStock: 0,
  skipped: [],
  summary: `${added} license key${added === 1 ? '' : 's'} added`,
});

/** An order's key as the back office lists it: it opens only through the order's recorded reveal. */
const orderKeyMask = (key: string | null) => `XXXXX-…-${key?.slice(-4)}`;

/** A key no one else has: random per test. */
const masked = (key: string) => `${'*'.repeat(20)}${key.slice(-5)}`;

describe('License keys API', () => {
  let database: DatabaseHandle;
  let eventStore: EventStore;
  let store: ApiWithReadModel;
  let api: TestApi;
  let admin: string;
  let customer: string;
  let adminId: string;
  let latest: Position = '';

  const request = (
    method: string,
    path: string,
    options: { body?: unknown; cookie?: string; text?: string; contentType?: string; origin?: string } = {},
  ) => {
    const headers: Record<string, string> = {};
    if (options.cookie) headers.cookie = options.cookie;
    if (options.origin) headers.origin = options.origin;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.contentType) headers['content-type'] = options.contentType;
    return fetch(`${api.url}${path}`, {
      method,
      headers,
      body: options.text ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
  };
  const expectAnswer = async (response: Response, status: number, body?: unknown) => {
    const text = await response.text();
    expect({ status: response.status, text }).toMatchObject({ status });
    if (body !== undefined) expect(JSON.parse(text)).toStrictEqual(body);
    return text ? JSON.parse(text) : undefined;
  };
  const listKeys = async (): Promise<LicenseKeyView[]> => {
    const response = await request('GET', '/api/license-keys', { cookie: admin });
    expect(response.headers.get('cache-control')).toBe('no-store');
    return expectAnswer(response, 200);
  };
  const addKey = async (productId: string, key: string): Promise<LicenseKeyView> =>
    expectAnswer(
      await request('POST', '/api/license-keys', { cookie: admin, body: { productId, key } }),
      201,
    );
  const importKeys = (body: unknown) => request('POST', '/api/license-keys/import', { cookie: admin, body });

  /** Waits until every read model the API reads has applied what was appended so far. */
  const settled = async (position: Position | null = null) => {
    if (position && position > latest) latest = position;
    expect(
      await waitForProjections(database.pool, latest, { projectors: READ_MODELS, timeoutMs: 10_000 }),
    ).toBe(true);
  };

  const product = async (name = `Windows 11 Pro ${randomUUID().slice(0, 8)}`) => ({
    id: await seedProduct(eventStore, database, { name }),
    name,
  });
  const deleteProduct = (productId: string) =>
    handleCommand(
      eventStore,
      productStream(productId),
      productDecider,
      { type: 'DeleteProduct', productId, now: new Date().toISOString() },
      system,
    );
  /** A key put straight into the product's inventory, past the api's checks, sealed by `vault` (the api's own by default). */
  const addToInventory = (productId: string, key: string, vault = api.keyVault, keyId = randomUUID()) =>
    handleCommand(
      eventStore,
      licenseKeysStream(productId),
      inventoryDecider,
      {
        type: 'AddLicenseKeys',
        productId,
        keys: [{ keyId, key: vault.seal(key), fingerprint: vault.fingerprint(key) }],
        lowStockThreshold: 0,
        now: new Date().toISOString(),
      },
      system,
    );

  /** A paid order (PayPal capture COMPLETED), placed through the order decider as the capture does. */
  const placeOrder = async (...lines: Array<{ productId: string; quantity: number }>) => {
    const orderId = randomUUID();
    const orderLines: OrderLine[] = lines.map(({ productId, quantity }, index) => ({
      lineId: `L${index + 1}`,
      productId,
      productName: `Product ${productId.slice(0, 8)}`,
      quantity,
      unitPrice: '10.00',
      lineTotal: formatCents(1000 * quantity),
    }));
    const outcome = await handleCommand(
      eventStore,
      orderStream(orderId),
      orderDecider,
      {
        type: 'PlaceCapturedOrder',
        orderId,
        paypalOrderId: `PAYPAL${randomUUID().slice(0, 8).toUpperCase()}`,
        captureId: `CAPTURE${randomUUID().slice(0, 8).toUpperCase()}`,
        captureStatus: 'COMPLETED',
        customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
        lines: orderLines,
        total: formatCents(orderLines.reduce((sum, line) => sum + 1000 * line.quantity, 0)),
        currency: 'USD',
        now: new Date().toISOString(),
      },
      system,
    );
    await settled(outcome.position);
    return { orderId, lines: orderLines };
  };

  /**
   * What the assign-keys and record-order-keys jobs do: the line asks its product's inventory for keys, and the
   * order records the keys it was given.
   */
  const requestKeys = async (orderId: string, line: OrderLine) => {
    const { position } = await requestAndRecordKeys(eventStore, orderId, line, {
      quantity: line.quantity,
      lowStockThreshold: LOW_STOCK_THRESHOLD,
      metadata: system,
    });
    await settled(position);
  };

  beforeAll(async () => {
    store = await startApiWithReadModel({
      env: { ADMIN_PASSWORD: ADMIN.password, LOW_STOCK_THRESHOLD: String(LOW_STOCK_THRESHOLD) },
    });
    ({ api, database, eventStore } = store);
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
    customer = await api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
    adminId = (await database.db.selectFrom('admin_users').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => store?.stop());

  describe('back office only', () => {
    const someId = randomUUID();
    it.each([
      ['GET', '/api/license-keys'],
      ['GET', '/api/license-keys/stock'],
      ['POST', '/api/license-keys'],
      ['POST', '/api/license-keys/import'],
      ['DELETE', `/api/license-keys/${someId}`],
      ['PATCH', `/api/orders/${someId}/status`],
      ['POST', `/api/orders/${someId}/delivery-email`],
    ])('%s %s answers 401 without a session and 403 to a customer', async (method, path) => {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      await expectAnswer(await request(method, path, { body }), 401, { error: 'Authentication required' });
      // Reads are open to auditors too (back-office-roles.int.spec.ts), writes to admins alone.
      await expectAnswer(await request(method, path, { body, cookie: customer }), 403, {
        error: method === 'GET' ? 'Back-office access required' : 'Admin access required',
      });
    });

    it('refuses a key sent by another site on behalf of a signed-in admin', async () => {
      const { id } = await product();
      const response = await request('POST', '/api/license-keys', {
        cookie: admin,
        origin: 'https://evil.example',
        body: { productId: id, key: freshLicenseKey() },
      });
      await expectAnswer(response, 403, { error: 'Cross-site request refused' });
    });
  });

  describe('POST /api/license-keys', () => {
    it('adds the key, sealed at rest, answers 201 with it in clear, and an immediate list shows it first', async () => {
      const { id: productId, name } = await product();
      const key = freshLicenseKey();
      const response = await request('POST', '/api/license-keys', {
        cookie: admin,
        body: { productId, key: `  ${key} ` },
      });
      expect(response.headers.get('cache-control')).toBe('no-store');
      const created = (await expectAnswer(response, 201)) as LicenseKeyView;
      expect(created).toStrictEqual({
        id: expect.stringMatching(UUID),
        productId,
        productName: name,
        key,
        assigned: false,
        orderId: null,
        createdAt: expect.stringMatching(ISO),
      });
      expect((await listKeys())[0]).toStrictEqual(created);

      const [added] = await readEvents(eventStore, licenseKeysStream(productId));
      expect(added?.type).toBe('LicenceKeyAdded');
      expect(added?.metadata).toMatchObject({
        actor: { type: 'admin', id: adminId },
        causationId: response.headers.get('x-request-id'),
      });
      const data = added?.data as { keyId: string; key: string; fingerprint: string };
      expect(data.keyId).toBe(created.id);
      expect(JSON.stringify(added?.data)).not.toContain(key);
      expect(api.keyVault.open(data.key)).toBe(key);
      expect(data.fingerprint).toBe(api.keyVault.fingerprint(key));
      const row = await database.db
        .selectFrom('license_keys')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(key);
    });

    it.each([
      [{}, BOTH_REQUIRED],
      [{ productId: randomUUID() }, BOTH_REQUIRED],
      [{ key: 'ABCDE-12345' }, BOTH_REQUIRED],
      [{ productId: ' ', key: 'ABCDE-12345' }, BOTH_REQUIRED],
      [{ productId: randomUUID(), key: '   ' }, BOTH_REQUIRED],
      [{ productId: randomUUID(), key: 12345 }, 'key: must be a string, not number'],
      [{ productId: randomUUID(), key: 'x'.repeat(201) }, KEY_TOO_LONG],
      [{ productId: randomUUID(), key: 'ABCDE\n12345' }, KEY_NOT_PRINTABLE],
    ])('refuses %j: 400 %s', async (body, error) => {
      await expectAnswer(await request('POST', '/api/license-keys', { cookie: admin, body }), 400, { error });
    });

    it("refuses a key not in the product's format, storing nothing: 400", async () => {
      const { id: productId } = await product();
      for (const key of ['short', freshLicenseKey().toLowerCase(), `${freshLicenseKey()}-X`]) {
        await expectAnswer(
          await request('POST', '/api/license-keys', { cookie: admin, body: { productId, key } }),
          400,
          {
            error: `This is not a key in this product's format ${DEFAULT_FORMAT}`,
          },
        );
      }
      expect(await readEvents(eventStore, licenseKeysStream(productId))).toStrictEqual([]);
    });

    it('answers 404 for a product that does not exist, 422 for one that was deleted', async () => {
      for (const productId of [randomUUID(), 'not-a-product']) {
        await expectAnswer(
          await request('POST', '/api/license-keys', {
            cookie: admin,
            body: { productId, key: freshLicenseKey() },
          }),
          404,
          { error: 'Product not found' },
        );
      }
      const { id: deleted } = await product();
      await deleteProduct(deleted);
      await expectAnswer(
        await request('POST', '/api/license-keys', {
          cookie: admin,
          body: { productId: deleted, key: freshLicenseKey() },
        }),
        422,
        { error: 'This product has been deleted: license keys cannot be added to it' },
      );
    });

    it('still takes keys for a deleted product while paid orders wait for them', async () => {
      const { id: productId } = await product();
      const { orderId, lines } = await placeOrder({ productId, quantity: 1 });
      await requestKeys(orderId, lines[0] as OrderLine);
      await deleteProduct(productId);
      const response = await request('POST', '/api/license-keys', {
        cookie: admin,
        body: { productId, key: freshLicenseKey() },
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ productId, productName: null, assigned: true, orderId });
    });

    it('refuses a key already in the inventory, however it was typed and whichever product has it: 409', async () => {
      const [first, second] = [await product(), await product()];
      const key = freshLicenseKey();
      // Recorded before products had key formats, in lower case with spaces.
      const typedEarlier = ` ${key.toLowerCase().replaceAll('-', ' - ')}`;
      const { position } = await addToInventory(first.id, typedEarlier);
      await settled(position);
      for (const productId of [first.id, second.id]) {
        await expectAnswer(
          await request('POST', '/api/license-keys', { cookie: admin, body: { productId, key } }),
          409,
          { error: DUPLICATE },
        );
      }
      expect((await listKeys()).filter((listed) => listed.key === typedEarlier)).toHaveLength(1);
    });

    it('gives a new key at once to an order waiting for one, and says so', async () => {
      const { id: productId } = await product();
      const order = await placeOrder({ productId, quantity: 1 });
      await requestKeys(order.orderId, order.lines[0] as OrderLine);
      const created = await addKey(productId, freshLicenseKey());
      expect(created).toMatchObject({ assigned: true, orderId: order.orderId });
      // The admin who typed it gets it back; the list masks it from then on, as it is an order's key now.
      expect((await listKeys()).find((listed) => listed.id === created.id)).toStrictEqual({
        ...created,
        key: orderKeyMask(created.key),
      });
    });
  });

  describe('GET /api/license-keys', () => {
    it('lists keys newest first, available ones in clear, assigned ones masked with their order, and keeps a deleted product’s keys', async () => {
      const [kept, deleted] = [await product(), await product()];
      const older = await addKey(kept.id, freshLicenseKey());
      const goneWithProduct = await addKey(deleted.id, freshLicenseKey());
      const order = await placeOrder({ productId: kept.id, quantity: 1 });
      await requestKeys(order.orderId, order.lines[0] as OrderLine);
      const deletion = await deleteProduct(deleted.id);
      await settled(deletion.position);

      const keys = await listKeys();
      const ours = keys.filter((key) => key.id === older.id || key.id === goneWithProduct.id);
      expect(ours).toStrictEqual([
        { ...goneWithProduct, productName: null },
        { ...older, key: orderKeyMask(older.key), assigned: true, orderId: order.orderId },
      ]);
      const createdAt = keys.map((key) => key.createdAt);
      expect(createdAt).toStrictEqual([...createdAt].sort().reverse());
    });

    it('shows a key that does not open as null and logs it, instead of failing the list', async () => {
      const { id: productId } = await product();
      const foreign = createKeyVault(randomBytes(32).toString('hex'));
      const keyId = randomUUID();
      const outcome = await addToInventory(productId, 'FOREIGN-KEY', foreign, keyId);
      await settled(outcome.position);
      expect((await listKeys()).find((key) => key.id === keyId)).toMatchObject({ key: null });
      expect(api.logger.entries).toContainEqual(
        expect.objectContaining({
          level: 'error',
          fields: expect.objectContaining({ keyId, alert: 'license-key-unreadable' }),
        }),
      );
    });
  });

  describe('POST /api/license-keys/import', () => {
    it('adds every new pasted key and reports, line by line and masked, those skipped as already in stock or repeated', async () => {
      const { id: productId } = await product();
      const stored = freshLicenseKey();
      await addKey(productId, stored);
      const [a, b, c] = [freshLicenseKey(), freshLicenseKey(), freshLicenseKey()];
      const text = [a, '', b, a, stored, ` ${c} `].join('\n');

      const response = await importKeys({ productId, keys: text });
      const result = (await expectAnswer(response, 200)) as ImportedKeysView;
      expect(result).toStrictEqual({
        added: 3,
        alreadyInStock: 1,
        skipped: [
          { line: 4, key: masked(a), reason: 'The same license key as line 1' },
          { line: 5, key: masked(stored), reason: ALREADY_IN_STOCK },
        ],
        summary: '3 license keys added; 1 already in stock, skipped; 1 repeated line, skipped',
      });
      const listed = (await listKeys()).filter((key) => key.productId === productId).map((key) => key.key);
      expect(listed.sort()).toStrictEqual([stored, a, b, c].sort());

      const added = (await readEvents(eventStore, licenseKeysStream(productId))).filter(
        (event) => event.type === 'LicenceKeyAdded',
      );
      expect(added).toHaveLength(4);
      // One command, so one append (one transaction), for the whole import.
      expect(new Set(added.slice(1).map((event) => event.position.split('/')[0])).size).toBe(1);
    });

    it('stores nothing when a line is not a key in the product format, naming each such line', async () => {
      const { id: productId } = await product();
      const [a, b] = [freshLicenseKey(), freshLicenseKey()];
      const text = [a, '', 'short', b.toLowerCase(), 'x'.repeat(201), 'BAD\tKEY', b].join('\n');

      await expectAnswer(await importKeys({ productId, keys: text }), 400, {
        error: `Nothing was imported: lines 3, 4, 5 and 6 are not keys in this product's format ${DEFAULT_FORMAT}`,
        added: 0,
        refused: [
          { line: 3, key: '*****', reason: NOT_IN_FORMAT },
          { line: 4, key: masked(b.toLowerCase()), reason: NOT_IN_FORMAT },
          { line: 5, key: masked('x'.repeat(201)), reason: KEY_TOO_LONG },
          { line: 6, key: '**D\tKEY', reason: KEY_NOT_PRINTABLE },
        ],
      });
      await expectAnswer(await importKeys({ productId, keys: `${a}\nshort` }), 400, {
        error: `Nothing was imported: line 2 is not a key in this product's format ${DEFAULT_FORMAT}`,
        added: 0,
        refused: [{ line: 2, key: '*****', reason: NOT_IN_FORMAT }],
      });
      expect(await readEvents(eventStore, licenseKeysStream(productId))).toStrictEqual([]);
      expect((await listKeys()).filter((key) => key.productId === productId)).toStrictEqual([]);
    });

    it("checks keys against the product's own format once an admin sets one", async () => {
      const { id: productId } = await product();
      const answer = await request('PATCH', `/api/products/${productId}`, {
        cookie: admin,
        body: { keyFormat: 'XXXX-XXXX' },
      });
      expect(((await expectAnswer(answer, 200)) as { keyFormat: string }).keyFormat).toBe('XXXX-XXXX');
      const listed = (await expectAnswer(await request('GET', `/api/products/${productId}`), 200)) as {
        keyFormat: string;
      };
      expect(listed.keyFormat).toBe('XXXX-XXXX');

      await expectAnswer(await importKeys({ productId, keys: `AB12-CD34\n${freshLicenseKey()}` }), 400, {
        error: "Nothing was imported: line 2 is not a key in this product's format XXXX-XXXX",
        added: 0,
        refused: [
          { line: 2, key: expect.any(String), reason: "Not a key in this product's format XXXX-XXXX" },
        ],
      });
      await expectAnswer(await importKeys({ productId, keys: 'AB12-CD34\nEF56-GH78' }), 200, allAdded(2));
      await expectAnswer(
        await request('PATCH', `/api/products/${productId}`, {
          cookie: admin,
          body: { keyFormat: '(X+)+$' },
        }),
        400,
        { error: 'keyFormat: must be groups of X separated by single hyphens, like XXXX-XXXX-XXXX' },
      );
    });

    it('reads a CSV file sent as it is: first column, header and blank lines skipped', async () => {
      const { id: productId } = await product();
      const [a, b] = [freshLicenseKey(), freshLicenseKey()];
      const csv = `License Key,Notes\r\n${a},first\r\n\r\n"${b}","second, quoted"\r\n\r\n`;
      const response = await request('POST', `/api/license-keys/import?productId=${productId}`, {
        cookie: admin,
        contentType: 'text/csv; charset=utf-8',
        text: csv,
      });
      await expectAnswer(response, 200, allAdded(2));
      const listed = (await listKeys()).filter((key) => key.productId === productId).map((key) => key.key);
      expect(listed.sort()).toStrictEqual([a, b].sort());
    });

    it('reads a TXT file sent as it is', async () => {
      const { id: productId } = await product();
      const keys = [freshLicenseKey(), freshLicenseKey()];
      const response = await request('POST', `/api/license-keys/import?productId=${productId}`, {
        cookie: admin,
        contentType: 'text/plain',
        text: `${keys.join('\n')}\n`,
      });
      await expectAnswer(response, 200, allAdded(2));
    });

    it('answers 200 with the skipped lines when every key is already in stock, adding none', async () => {
      const { id: productId } = await product();
      const stored = freshLicenseKey();
      await addKey(productId, stored);
      const response = await importKeys({ productId, keys: `${stored}\n${stored}` });
      await expectAnswer(response, 200, {
        added: 0,
        alreadyInStock: 1,
        skipped: [
          { line: 1, key: masked(stored), reason: ALREADY_IN_STOCK },
          { line: 2, key: masked(stored), reason: 'The same license key as line 1' },
        ],
        summary: 'No new license key added; 1 already in stock, skipped; 1 repeated line, skipped',
      });
      const listed = (await listKeys()).filter((key) => key.productId === productId).map((key) => key.key);
      expect(listed).toStrictEqual([stored]);
    });

    it('skips, line by line, a key the read table does not show yet but the inventory has', async () => {
      const { id: productId } = await product();
      const [racing, fresh] = [freshLicenseKey(), freshLicenseKey()];
      await store.withProjectionsStopped(async () => {
        await addToInventory(productId, racing);
        // The projections are stopped: the answer comes after the bounded read-your-writes wait.
        await expectAnswer(await importKeys({ productId, keys: `${racing}\n${fresh}` }), 200, {
          added: 1,
          alreadyInStock: 1,
          skipped: [{ line: 1, key: masked(racing), reason: ALREADY_IN_STOCK }],
          summary: '1 license key added; 1 already in stock, skipped',
        });
      });
      await settled((await readEvents(eventStore, licenseKeysStream(productId))).at(-1)?.position);
      const listed = (await listKeys()).filter((key) => key.productId === productId).map((key) => key.key);
      expect(listed.sort()).toStrictEqual([racing, fresh].sort());
    });

    it('adds thousands of keys in a few commands', async () => {
      const { id: productId } = await product();
      const keys = Array.from({ length: 2100 }, () => freshLicenseKey());
      const response = await importKeys({ productId, keys: keys.join('\n') });
      await expectAnswer(response, 200, allAdded(2100));
      const stock = (await expectAnswer(
        await request('GET', '/api/license-keys/stock', { cookie: admin }),
        200,
      )) as Array<{ productId: string; available: number }>;
      expect(stock.find((row) => row.productId === productId)?.available).toBe(2100);
    });

    it("lands an import larger than one append may hold completely, no append over the store's limit", async () => {
      // The longest keys a format allows: 5,000 of them come to several times one append's limit.
      const groups = 20;
      const keyFormat = Array.from({ length: groups }, () => 'XXXX').join('-');
      const { id: productId } = await product();
      await expectAnswer(
        await request('PATCH', `/api/products/${productId}`, { cookie: admin, body: { keyFormat } }),
        200,
      );
      const longKey = () => {
        const hex = randomBytes(groups * 2)
          .toString('hex')
          .toUpperCase();
        return Array.from({ length: groups }, (_, group) => hex.slice(group * 4, group * 4 + 4)).join('-');
      };
      const keys = Array.from({ length: 5000 }, longKey);
      await expectAnswer(await importKeys({ productId, keys: keys.join('\n') }), 200, allAdded(5000));

      const added = (await readEvents(eventStore, licenseKeysStream(productId))).filter(
        (event) => event.type === 'LicenceKeyAdded',
      );
      expect(added).toHaveLength(5000);
      // One append is one Postgres transaction: the first part of the position.
      const bytesPerAppend = new Map<string, number>();
      for (const event of added) {
        const append = event.position.split('/')[0] as string;
        const bytes =
          Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata));
        bytesPerAppend.set(append, (bytesPerAppend.get(append) ?? 0) + bytes);
      }
      const sizes = [...bytesPerAppend.values()];
      expect(sizes.reduce((sum, bytes) => sum + bytes, 0)).toBeGreaterThan(2 * MAX_APPEND_BYTES);
      for (const bytes of sizes) expect(bytes).toBeLessThanOrEqual(MAX_APPEND_BYTES);
      const stock = (await expectAnswer(
        await request('GET', '/api/license-keys/stock', { cookie: admin }),
        200,
      )) as Array<{ productId: string; available: number }>;
      expect(stock.find((row) => row.productId === productId)?.available).toBe(5000);
    });

    it.each([
      [{}, 'Product and license keys are both required'],
      [{ productId: randomUUID(), keys: ' \n ' }, 'Product and license keys are both required'],
      [{ productId: randomUUID(), keys: ['A'] }, 'keys: must be a string, not array'],
    ])('refuses %j: 400 %s', async (body, error) => {
      await expectAnswer(await importKeys(body), 400, { error });
    });

    it('refuses a file without keys, or with more than 5,000', async () => {
      const { id: productId } = await product();
      await expectAnswer(await importKeys({ productId, keys: 'License Key\n\n' }), 400, {
        error: 'No license keys found: put one key per line',
      });
      const tooMany = Array.from({ length: 5001 }, (_, n) => `KEY-${n}`).join('\n');
      await expectAnswer(await importKeys({ productId, keys: tooMany }), 400, {
        error: 'An import takes at most 5,000 keys, not 5,001: split the file',
      });
    });

    it('refuses more than 1 MB, an unknown product and a body it cannot read', async () => {
      const { id: productId } = await product();
      await expectAnswer(await importKeys({ productId, keys: 'x'.repeat(1_100_000) }), 413, {
        error: 'Request body too large: at most 1 MB',
      });
      await expectAnswer(await importKeys({ productId: randomUUID(), keys: freshLicenseKey() }), 404, {
        error: 'Product not found',
      });
      await expectAnswer(
        await request('POST', '/api/license-keys/import', {
          cookie: admin,
          contentType: 'application/octet-stream',
          text: freshLicenseKey(),
        }),
        415,
        {
          error:
            'Send the keys as JSON {productId, keys}, or as a text/csv or text/plain body with ?productId=',
        },
      );
      await expectAnswer(
        await request('POST', '/api/license-keys/import', {
          cookie: admin,
          contentType: 'text/plain',
          text: freshLicenseKey(),
        }),
        400,
        { error: 'Product and license keys are both required' },
      );
    });
  });

  describe('DELETE /api/license-keys/:id', () => {
    it('removes an available key: 204, gone from the list, and a second delete is 404', async () => {
      const { id: productId } = await product();
      const key = await addKey(productId, freshLicenseKey());
      await expectAnswer(await request('DELETE', `/api/license-keys/${key.id}`, { cookie: admin }), 204);
      expect((await listKeys()).map((listed) => listed.id)).not.toContain(key.id);
      await expectAnswer(await request('DELETE', `/api/license-keys/${key.id}`, { cookie: admin }), 404, {
        error: 'License key not found',
      });
      // Removed, it may be added again.
      await addKey(productId, key.key as string);
    });

    it('refuses an assigned key with 409, naming the order', async () => {
      const { id: productId } = await product();
      const key = await addKey(productId, freshLicenseKey());
      const order = await placeOrder({ productId, quantity: 1 });
      await requestKeys(order.orderId, order.lines[0] as OrderLine);
      await expectAnswer(await request('DELETE', `/api/license-keys/${key.id}`, { cookie: admin }), 409, {
        error: `This license key is assigned to order #${order.orderId.slice(0, 8).toUpperCase()} and cannot be deleted.`,
      });
      expect((await listKeys()).find((listed) => listed.id === key.id)).toMatchObject({ assigned: true });
    });

    it.each([randomUUID(), 'not-a-key'])('answers 404 for %s', async (id) => {
      await expectAnswer(await request('DELETE', `/api/license-keys/${id}`, { cookie: admin }), 404, {
        error: 'License key not found',
      });
    });
  });

  describe('GET /api/admin/stock-mismatches', () => {
    it('lists the products shown in stock with no key available, or out of stock with keys, and follows a fix', async () => {
      const shownInStock = async (name: string, inStock: boolean) => ({
        id: await seedProduct(eventStore, database, { name, inStock }),
        name,
      });
      const [empty, stocked, hidden, soldOut] = [
        await shownInStock('BBB In stock without keys', true),
        await shownInStock('BBB In stock with keys', true),
        await shownInStock('BBB Out of stock with keys', false),
        await shownInStock('BBB Out of stock without keys', false),
      ];
      await addKey(stocked.id, freshLicenseKey());
      for (let n = 0; n < 2; n++) await addKey(hidden.id, freshLicenseKey());
      const ours = new Set([empty.id, stocked.id, hidden.id, soldOut.id]);
      const mismatches = async () => {
        const response = await request('GET', '/api/admin/stock-mismatches', { cookie: admin });
        expect(response.headers.get('cache-control')).toBe('no-store');
        const all = (await expectAnswer(response, 200)) as Array<{ productId: string }>;
        return all.filter((row) => ours.has(row.productId));
      };

      expect(await mismatches()).toStrictEqual([
        { productId: empty.id, productName: empty.name, inStock: true, available: 0 },
        { productId: hidden.id, productName: hidden.name, inStock: false, available: 2 },
      ]);

      await expectAnswer(
        await request('PATCH', `/api/products/${hidden.id}`, { cookie: admin, body: { inStock: true } }),
        200,
      );
      await addKey(empty.id, freshLicenseKey());
      expect(await mismatches()).toStrictEqual([]);
    });
  });

  describe('GET /api/license-keys/stock', () => {
    it('counts available, assigned and owed keys per product on sale, low below the threshold', async () => {
      const [stocked, short] = [await product('AAA Stocked'), await product('AAA Short')];
      for (let n = 0; n < 4; n++) await addKey(stocked.id, freshLicenseKey());
      await addKey(short.id, freshLicenseKey());
      const order = await placeOrder({ productId: short.id, quantity: 3 });
      await requestKeys(order.orderId, order.lines[0] as OrderLine);

      const response = await request('GET', '/api/license-keys/stock', { cookie: admin });
      expect(response.headers.get('cache-control')).toBe('no-store');
      const stock = (await expectAnswer(response, 200)) as Array<{ productId: string }>;
      expect(stock.filter((row) => row.productId === stocked.id || row.productId === short.id)).toStrictEqual(
        [
          {
            productId: short.id,
            productName: 'AAA Short',
            available: 0,
            assigned: 1,
            waiting: 2,
            lowStock: true,
          },
          {
            productId: stocked.id,
            productName: 'AAA Stocked',
            available: 4,
            assigned: 0,
            waiting: 0,
            lowStock: false,
          },
        ],
      );
    });
  });

  describe('orders', () => {
    it('GET /api/orders/:id/items shows the holder each line’s keys in clear, first one as licenseKey', async () => {
      const [office, windows, antivirus] = [await product(), await product(), await product()];
      const officeKeys = [freshLicenseKey(), freshLicenseKey()];
      for (const key of officeKeys) await addKey(office.id, key);
      const windowsKey = freshLicenseKey();
      await addKey(windows.id, windowsKey);
      const order = await placeOrder(
        { productId: office.id, quantity: 2 },
        { productId: windows.id, quantity: 2 },
        { productId: antivirus.id, quantity: 1 },
      );
      for (const line of order.lines) await requestKeys(order.orderId, line);

      // The paying browser's cookie: the holder of the order's access.
      const holder = `order_access=${api.orderAccess.token('order-cookie', order.orderId)}`;
      const response = await request('GET', `/api/orders/${order.orderId}/items`, { cookie: holder });
      expect(response.headers.get('cache-control')).toBe('no-store');
      const items = await expectAnswer(response, 200);
      expect(items).toStrictEqual([
        {
          id: `${order.orderId}:L1`,
          productName: `Product ${office.id.slice(0, 8)}`,
          quantity: 2,
          price: '10.00',
          downloadUrl: null,
          installationNotes: null,
          licenseKey: officeKeys[0],
          licenseKeys: officeKeys,
        },
        {
          id: `${order.orderId}:L2`,
          productName: `Product ${windows.id.slice(0, 8)}`,
          quantity: 2,
          price: '10.00',
          downloadUrl: null,
          installationNotes: null,
          licenseKey: windowsKey,
          licenseKeys: [windowsKey],
        },
        {
          id: `${order.orderId}:L3`,
          productName: `Product ${antivirus.id.slice(0, 8)}`,
          quantity: 1,
          price: '10.00',
          downloadUrl: null,
          installationNotes: null,
          licenseKey: null,
          licenseKeys: [],
        },
      ]);
      // The order itself and the admin's list of orders carry no keys.
      const orderBody = await (await request('GET', `/api/orders/${order.orderId}`)).text();
      const ordersBody = await (await request('GET', '/api/orders', { cookie: admin })).text();
      for (const key of [...officeKeys, windowsKey]) {
        expect(orderBody).not.toContain(key);
        expect(ordersBody).not.toContain(key);
      }
    });

    describe('PATCH /api/orders/:id/status', () => {
      it('sets pending, completed or cancelled, recorded with the admin as actor, and answers the stored order', async () => {
        const order = await placeOrder({ productId: (await product()).id, quantity: 1 });
        for (const status of ['completed', 'pending', 'cancelled']) {
          const response = await request('PATCH', `/api/orders/${order.orderId}/status`, {
            cookie: admin,
            body: { status },
          });
          expect(await expectAnswer(response, 200)).toMatchObject({ id: order.orderId, status });
          expect(await expectAnswer(await request('GET', `/api/orders/${order.orderId}`), 200)).toMatchObject(
            { status },
          );
        }
        const changes = (await readEvents(eventStore, orderStream(order.orderId))).filter(
          (event) => event.type === 'OrderStatusChanged',
        );
        expect(changes.map((event) => [event.data, event.metadata.actor])).toStrictEqual([
          [expect.objectContaining({ from: 'processing', to: 'completed' }), { type: 'admin', id: adminId }],
          [expect.objectContaining({ from: 'completed', to: 'pending' }), { type: 'admin', id: adminId }],
          [expect.objectContaining({ from: 'pending', to: 'cancelled' }), { type: 'admin', id: adminId }],
        ]);
      });

      it.each([
        [{ status: 'processing' }],
        [{ status: 'refunded' }],
        [{ status: 'shipped' }],
        [{ status: 1 }],
        [{}],
      ])('refuses %j with 400 naming the allowed values', async (body) => {
        const order = await placeOrder({ productId: (await product()).id, quantity: 1 });
        await expectAnswer(
          await request('PATCH', `/api/orders/${order.orderId}/status`, { cookie: admin, body }),
          400,
          { error: 'status: must be one of pending, completed, cancelled' },
        );
      });

      it.each([randomUUID(), 'not-an-order'])('answers 404 for order %s', async (id) => {
        await expectAnswer(
          await request('PATCH', `/api/orders/${id}/status`, {
            cookie: admin,
            body: { status: 'completed' },
          }),
          404,
          { error: 'Order not found' },
        );
      });
    });

    describe('POST /api/orders/:id/delivery-email', () => {
      it('answers 409 while the order waits for keys, then 202 and records the resend request', async () => {
        const { id: productId } = await product();
        const order = await placeOrder({ productId, quantity: 1 });
        const resend = () =>
          request('POST', `/api/orders/${order.orderId}/delivery-email`, { cookie: admin });
        await expectAnswer(await resend(), 409, {
          error: `Order #${order.orderId.slice(0, 8).toUpperCase()} is still waiting for license keys; its delivery email goes out as soon as every key is assigned.`,
        });

        await addKey(productId, freshLicenseKey());
        await requestKeys(order.orderId, order.lines[0] as OrderLine);
        const response = await resend();
        expect(await expectAnswer(response, 202)).toStrictEqual({ requestedAt: expect.stringMatching(ISO) });
        const requested = (await readEvents(eventStore, orderStream(order.orderId))).filter(
          (event) => event.type === 'DeliveryEmailResendRequested',
        );
        expect(requested).toHaveLength(1);
        expect(requested[0]?.metadata).toMatchObject({
          actor: { type: 'admin', id: adminId },
          causationId: response.headers.get('x-request-id'),
        });
      });

      it.each([randomUUID(), 'not-an-order'])('answers 404 for order %s', async (id) => {
        await expectAnswer(
          await request('POST', `/api/orders/${id}/delivery-email`, { cookie: admin }),
          404,
          { error: 'Order not found' },
        );
      });
    });
  });

  describe('GET /api/admin/dashboard', () => {
    it('counts keys and orders awaiting them, and lists the products low on keys', async () => {
      const { id: productId } = await product('AAA Waiting');
      const order = await placeOrder({ productId, quantity: 1 });
      await requestKeys(order.orderId, order.lines[0] as OrderLine);

      const dashboard = await expectAnswer(
        await request('GET', '/api/admin/dashboard', { cookie: admin }),
        200,
      );
      const keys = await listKeys();
      const stock = (await expectAnswer(
        await request('GET', '/api/license-keys/stock', { cookie: admin }),
        200,
      )) as Array<{ productId: string; productName: string; available: number; lowStock: boolean }>;
      expect(dashboard).toMatchObject({
        availableKeys: keys.filter((key) => !key.assigned).length,
        assignedKeys: keys.filter((key) => key.assigned).length,
        ordersAwaitingKeys: expect.any(Number),
        lowStock: stock
          .filter((row) => row.lowStock)
          .map(({ productId, productName, available }) => ({ productId, productName, available })),
      });
      expect(dashboard.ordersAwaitingKeys).toBeGreaterThanOrEqual(1);
      expect(dashboard.lowStock).toContainEqual({ productId, productName: 'AAA Waiting', available: 0 });
    });
  });

  it('the api refuses to start without LICENSE_KEY_SECRET', async () => {
    await expect(startTestApi({ env: { LICENSE_KEY_SECRET: '' } })).rejects.toThrow(
      'LICENSE_KEY_SECRET: required',
    );
  });
});

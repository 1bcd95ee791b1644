import { randomUUID } from 'node:crypto';
import type { Product } from '@licensestore/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type TestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const productFields = (overrides: Record<string, unknown> = {}) => ({
  name: `Office Suite ${randomUUID().slice(0, 8)}`,
  description: 'Word processing, spreadsheets and slides.',
  imageUrl: '/images/products/office.svg',
  category: 'Office',
  platform: 'Windows',
  regularPrice: '249.99',
  salePrice: '199.5',
  featured: true,
  inStock: true,
  ...overrides,
});

describe('Catalogue API', () => {
  let store: ApiWithReadModel;
  let api: TestApi;
  let admin: string;
  let customer: string;

  const request = (
    method: string,
    path: string,
    options: { body?: unknown; cookie?: string; raw?: string } = {},
  ) =>
    fetch(`${api.url}${path}`, {
      method,
      headers: {
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.body !== undefined || options.raw !== undefined
          ? { 'content-type': 'application/json' }
          : {}),
      },
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });

  const getProduct = async (id: string) => request('GET', `/api/products/${id}`);
  const listIds = async (path: string) =>
    ((await (await request('GET', path)).json()) as Product[]).map((product) => product.id);

  const createProduct = async (overrides: Record<string, unknown> = {}): Promise<Product> => {
    const response = await request('POST', '/api/products', {
      body: productFields(overrides),
      cookie: admin,
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Product;
  };

  beforeAll(async () => {
    store = await startApiWithReadModel({ env: { ADMIN_PASSWORD: ADMIN.password } });
    ({ api } = store);
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
    customer = await api.sessionCookie({ kind: 'customer', subjectId: 'customer@example.com' });
  });
  afterAll(() => store?.stop());

  describe('POST /api/products (admin)', () => {
    it('creates the product, answers 201 with it, and an immediate read shows it', async () => {
      const response = await request('POST', '/api/products', {
        body: productFields({
          name: 'Windows 11 Pro',
          salePrice: '',
          regularPrice: '199.9',
          featured: false,
        }),
        cookie: admin,
      });
      expect(response.status).toBe(201);
      const created = (await response.json()) as Product;
      const expected = {
        id: expect.stringMatching(UUID),
        name: 'Windows 11 Pro',
        description: 'Word processing, spreadsheets and slides.',
        imageUrl: '/images/products/office.svg',
        category: 'Office',
        platform: 'Windows',
        downloadUrl: null,
        installationNotes: null,
        keyFormat: null,
        regularPrice: '199.90',
        salePrice: null,
        featured: false,
        inStock: true,
      };
      expect(created).toStrictEqual(expected);

      const read = await getProduct(created.id);
      expect(read.status).toBe(200);
      expect(await read.json()).toStrictEqual({ ...expected, id: created.id });
      expect(await listIds('/api/products')).toContain(created.id);
    });

    it('applies the defaults: not featured, in stock', async () => {
      const { featured: _featured, inStock: _inStock, ...fields } = productFields();
      const response = await request('POST', '/api/products', { body: fields, cookie: admin });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ featured: false, inStock: true, salePrice: '199.50' });
    });

    it("records who did it under the server's correlation id, never the caller's", async () => {
      const response = await fetch(`${api.url}/api/products`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: admin, 'x-correlation-id': 'checkout-42' },
        body: JSON.stringify(productFields()),
      });
      const { id } = (await response.json()) as Product;
      const adminRow = await store.database.db
        .selectFrom('admin_users')
        .select('id')
        .executeTakeFirstOrThrow();
      const events = [];
      for await (const event of store.eventStore.readStream(`product-${id}`)) events.push(event);
      expect(events).toHaveLength(1);
      expect(events[0]?.type).toBe('ProductCreated');
      expect(events[0]?.metadata).toEqual({
        actor: { type: 'admin', id: adminRow.id },
        correlationId: response.headers.get('x-request-id'),
        causationId: response.headers.get('x-request-id'),
        schemaVersion: 1,
      });
    });
  });

  describe('GET /api/products', () => {
    it('lists every product with exactly the public fields, prices as 2-place strings', async () => {
      const created = await createProduct({ regularPrice: '10', salePrice: '7.5' });
      const products = (await (await request('GET', '/api/products')).json()) as Product[];
      expect(products.length).toBeGreaterThan(0);
      for (const product of products) {
        expect(Object.keys(product).sort()).toEqual(
          [
            'category',
            'description',
            'downloadUrl',
            'featured',
            'id',
            'imageUrl',
            'inStock',
            'installationNotes',
            'keyFormat',
            'name',
            'platform',
            'regularPrice',
            'salePrice',
          ].sort(),
        );
        expect(product.id).toMatch(UUID);
        for (const field of ['name', 'description', 'imageUrl', 'category', 'platform'] as const) {
          expect(typeof product[field]).toBe('string');
        }
        expect(product.regularPrice).toMatch(/^\d+\.\d{2}$/);
        expect(product.salePrice === null || /^\d+\.\d{2}$/.test(product.salePrice)).toBe(true);
        expect(typeof product.featured).toBe('boolean');
        expect(typeof product.inStock).toBe('boolean');
      }
      expect(products.find((product) => product.id === created.id)).toMatchObject({
        regularPrice: '10.00',
        salePrice: '7.50',
      });
    });

    it('lists only featured products under /featured', async () => {
      const featured = await createProduct({ featured: true });
      const plain = await createProduct({ featured: false });
      const ids = await listIds('/api/products/featured');
      expect(ids).toContain(featured.id);
      expect(ids).not.toContain(plain.id);
      const products = (await (await request('GET', '/api/products/featured')).json()) as Product[];
      expect(products.every((product) => product.featured)).toBe(true);
    });
  });

  describe('GET /api/products/:id', () => {
    it.each([randomUUID(), 'not-a-uuid', '123', "1' OR '1'='1", `${randomUUID()}x`])(
      'answers 404 for %s',
      async (id) => {
        const response = await getProduct(encodeURIComponent(id));
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: 'Product not found' });
      },
    );
  });

  describe('PATCH /api/products/:id (admin)', () => {
    it('changes only the given fields, and an immediate read shows the change', async () => {
      const product = await createProduct({ featured: true });
      const response = await request('PATCH', `/api/products/${product.id}`, {
        body: {
          name: 'Office 2024 Professional Plus',
          regularPrice: '299',
          salePrice: null,
          featured: false,
        },
        cookie: admin,
      });
      expect(response.status).toBe(200);
      const expected = {
        ...product,
        name: 'Office 2024 Professional Plus',
        regularPrice: '299.00',
        salePrice: null,
        featured: false,
      };
      expect(await response.json()).toStrictEqual(expected);
      expect(await (await getProduct(product.id)).json()).toStrictEqual(expected);
      expect(await listIds('/api/products/featured')).not.toContain(product.id);
    });

    it('answers with the product unchanged when nothing differs', async () => {
      const product = await createProduct();
      const response = await request('PATCH', `/api/products/${product.id}`, {
        body: { name: product.name },
        cookie: admin,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toStrictEqual(product);
    });

    it('answers 404 for a product that does not exist, or a malformed id', async () => {
      for (const id of [randomUUID(), 'abc']) {
        const response = await request('PATCH', `/api/products/${id}`, {
          body: { name: 'x' },
          cookie: admin,
        });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: 'Product not found' });
      }
    });
  });

  describe('DELETE /api/products/:id (admin)', () => {
    it('removes the product: 204, then an immediate read is 404', async () => {
      const product = await createProduct();
      const response = await request('DELETE', `/api/products/${product.id}`, { cookie: admin });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      const read = await getProduct(product.id);
      expect(read.status).toBe(404);
      expect(await read.json()).toEqual({ error: 'Product not found' });
      expect(await listIds('/api/products')).not.toContain(product.id);
    });

    it('answers 404 when the product is already gone', async () => {
      const product = await createProduct();
      expect((await request('DELETE', `/api/products/${product.id}`, { cookie: admin })).status).toBe(204);
      for (const method of ['DELETE', 'PATCH']) {
        const again = await request(method, `/api/products/${product.id}`, {
          body: { name: 'x' },
          cookie: admin,
        });
        expect(again.status).toBe(404);
        expect(await again.json()).toEqual({ error: 'Product not found' });
      }
    });
  });

  describe('bad bodies', () => {
    const cases: Array<[string, string, () => Promise<string>, { body?: unknown; raw?: string }, string]> = [
      [
        'POST',
        'a missing name',
        async () => '',
        { body: productFields({ name: undefined }) },
        'name: is required',
      ],
      ['POST', 'a blank name', async () => '', { body: productFields({ name: '   ' }) }, 'name: is required'],
      [
        'POST',
        'a price that is not an amount',
        async () => '',
        { body: productFields({ regularPrice: 'cheap' }) },
        'regularPrice: must be an amount like 19.99',
      ],
      [
        'POST',
        'a price with three decimals',
        async () => '',
        { body: productFields({ salePrice: '1.999' }) },
        'salePrice: must be an amount like 19.99',
      ],
      [
        'POST',
        'wrong types',
        async () => '',
        { body: productFields({ featured: 'yes', regularPrice: 19.99 }) },
        'regularPrice: must be a string, not number; featured: must be a boolean, not string',
      ],
      [
        'POST',
        'a javascript: image URL',
        async () => '',
        { body: productFields({ imageUrl: 'javascript:alert(1)' }) },
        'imageUrl: must be an image on this site, a path such as /objects/uploads/… (upload the image to get one)',
      ],
      [
        'PATCH',
        'a protocol-relative image URL',
        async () => (await createProduct()).id,
        { body: { imageUrl: '//evil.example/x.png' } },
        'imageUrl: must be an image on this site, a path such as /objects/uploads/… (upload the image to get one)',
      ],
      ['POST', 'an array', async () => '', { body: [productFields()] }, 'Request body must be a JSON object'],
      ['POST', 'malformed JSON', async () => '', { raw: '{"name": ' }, 'Malformed JSON body'],
      [
        'PATCH',
        'an empty change',
        async () => (await createProduct()).id,
        { body: {} },
        'at least one field must change',
      ],
      [
        'PATCH',
        'a wrong type',
        async () => (await createProduct()).id,
        { body: { inStock: 'no' } },
        'inStock: must be a boolean, not string',
      ],
      [
        'PATCH',
        'malformed JSON',
        async () => (await createProduct()).id,
        { raw: '{' },
        'Malformed JSON body',
      ],
    ];

    it.each(cases)(
      '%s with %s answers 400 naming the problem',
      async (method, _what, target, body, message) => {
        const id = await target();
        const path = method === 'POST' ? '/api/products' : `/api/products/${id}`;
        const before = await listIds('/api/products');
        const response = await request(method, path, { ...body, cookie: admin });
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ error: message });
        expect(await listIds('/api/products')).toEqual(before);
      },
    );
  });

  describe('downloads', () => {
    const notes = 'Sign in to your Microsoft account.\r\nChoose Install Office, then run the installer.';

    it('stores an official https download URL and multi-line installation notes, and clears them', async () => {
      const created = await createProduct({
        downloadUrl: 'https://setup.office.com/',
        installationNotes: notes,
      });
      expect(created).toMatchObject({
        downloadUrl: 'https://setup.office.com/',
        installationNotes:
          'Sign in to your Microsoft account.\nChoose Install Office, then run the installer.',
      });
      expect(await (await getProduct(created.id)).json()).toMatchObject({
        downloadUrl: 'https://setup.office.com/',
      });

      const changed = await request('PATCH', `/api/products/${created.id}`, {
        body: { downloadUrl: 'https://WWW.Microsoft.com/en-us/software-download/windows11' },
        cookie: admin,
      });
      expect(changed.status).toBe(200);
      expect(await (await getProduct(created.id)).json()).toMatchObject({
        downloadUrl: 'https://www.microsoft.com/en-us/software-download/windows11',
        installationNotes:
          'Sign in to your Microsoft account.\nChoose Install Office, then run the installer.',
      });

      const cleared = await request('PATCH', `/api/products/${created.id}`, {
        body: { downloadUrl: '', installationNotes: null },
        cookie: admin,
      });
      expect(cleared.status).toBe(200);
      expect(await (await getProduct(created.id)).json()).toMatchObject({
        downloadUrl: null,
        installationNotes: null,
      });
    });

    it.each([
      [
        'http://',
        'http://www.microsoft.com/software-download',
        'downloadUrl: must start with https:// (not http:)',
      ],
      [
        'javascript:',
        'javascript:alert(document.cookie)',
        'downloadUrl: must start with https:// (not javascript:)',
      ],
      [
        'data:',
        'data:text/html,<script>alert(1)</script>',
        'downloadUrl: must start with https:// (not data:)',
      ],
      [
        'a relative path',
        '/downloads/office.exe',
        'downloadUrl: must be an absolute URL starting with https://',
      ],
      [
        'credentials',
        'https://admin:s3cret@downloads.example.com/setup.exe',
        'downloadUrl: must not contain a user name or password',
      ],
      [
        'a host without a domain',
        'https://intranet/setup.exe',
        'downloadUrl: must name a host like www.vendor.com',
      ],
      [
        'a line break',
        'https://www.norton.com/setup\nhttps://evil.example',
        'downloadUrl: contains a character that cannot be stored (U+000A)',
      ],
      [
        '2001 characters',
        `https://www.adobe.com/${'a'.repeat(1979)}`,
        'downloadUrl: must be at most 2000 characters',
      ],
    ])(
      'refuses %s as a download URL with a clear 400, on create and on change',
      async (_what, url, message) => {
        const before = await listIds('/api/products');
        const create = await request('POST', '/api/products', {
          body: productFields({ downloadUrl: url }),
          cookie: admin,
        });
        expect(create.status).toBe(400);
        expect(await create.json()).toEqual({ error: message });
        expect(await listIds('/api/products')).toEqual(before);

        const existing = await createProduct({ downloadUrl: 'https://www.norton.com/setup' });
        const change = await request('PATCH', `/api/products/${existing.id}`, {
          body: { downloadUrl: url },
          cookie: admin,
        });
        expect(change.status).toBe(400);
        expect(await change.json()).toEqual({ error: message });
        expect(await (await getProduct(existing.id)).json()).toMatchObject({
          downloadUrl: 'https://www.norton.com/setup',
        });
      },
    );

    it('refuses installation notes longer than 1000 characters', async () => {
      const response = await request('POST', '/api/products', {
        body: productFields({ installationNotes: 'x'.repeat(1001) }),
        cookie: admin,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'installationNotes: must be at most 1000 characters' });
    });
  });

  describe('admin routes', () => {
    let existing: Product;
    beforeAll(async () => {
      existing = await createProduct();
    });

    const routes = () =>
      [
        ['POST', '/api/products', productFields()],
        ['PATCH', `/api/products/${existing.id}`, { name: 'Hijacked' }],
        ['DELETE', `/api/products/${existing.id}`, undefined],
      ] as const;

    it('refuse anonymous callers with 401 and change nothing', async () => {
      for (const [method, path, body] of routes()) {
        const response = await request(method, path, { body });
        expect(response.status, `${method} ${path}`).toBe(401);
        expect(await response.json()).toEqual({ error: 'Authentication required' });
      }
      expect(await (await getProduct(existing.id)).json()).toStrictEqual(existing);
    });

    it('refuse a signed-in customer with 403 and change nothing', async () => {
      for (const [method, path, body] of routes()) {
        const response = await request(method, path, { body, cookie: customer });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(await response.json()).toEqual({ error: 'Admin access required' });
      }
      expect(await (await getProduct(existing.id)).json()).toStrictEqual(existing);
    });

    it('refuse a signed-out admin', async () => {
      const cookie = await signIn(api.url, ADMIN.username, ADMIN.password);
      await request('POST', '/api/admin/logout', { cookie });
      const response = await request('PATCH', `/api/products/${existing.id}`, {
        body: { name: 'x' },
        cookie,
      });
      expect(response.status).toBe(401);
    });
  });

  describe('GET /api/testimonials', () => {
    it('lists testimonials newest first with their public fields', async () => {
      await store.database.db
        .insertInto('testimonials')
        .values([
          {
            id: randomUUID(),
            customer_name: 'Ana Silva',
            rating: 5,
            comment: 'Key arrived instantly.',
            location: 'Porto',
            date: '2025-01-10',
          },
          {
            id: randomUUID(),
            customer_name: 'Ben Okafor',
            rating: 4,
            comment: 'Good price.',
            location: 'Lagos',
            date: '2025-03-02',
          },
        ])
        .execute();
      const response = await request('GET', '/api/testimonials');
      expect(response.status).toBe(200);
      expect(await response.json()).toStrictEqual([
        {
          id: expect.stringMatching(UUID),
          customerName: 'Ben Okafor',
          rating: 4,
          comment: 'Good price.',
          location: 'Lagos',
          date: '2025-03-02',
        },
        {
          id: expect.stringMatching(UUID),
          customerName: 'Ana Silva',
          rating: 5,
          comment: 'Key arrived instantly.',
          location: 'Porto',
          date: '2025-01-10',
        },
      ]);
    });
  });

  // Last: it stops the shared projection runner for a while.
  describe('when the projections lag', () => {
    it('still answers after a bounded wait, and the read model catches up once they run', async () => {
      const product = await store.withProjectionsStopped(async () => {
        const started = performance.now();
        const created = await createProduct();
        const waited = performance.now() - started;
        expect(waited).toBeGreaterThanOrEqual(2900);
        expect(waited).toBeLessThan(10_000);
        expect((await getProduct(created.id)).status).toBe(404);
        expect(api.logger.entries).toContainEqual(
          expect.objectContaining({
            level: 'warn',
            message: 'projections lag: answered before the read model caught up',
          }),
        );
        return created;
      });
      const response = await request('PATCH', `/api/products/${product.id}`, {
        body: { inStock: false },
        cookie: admin,
      });
      expect(response.status).toBe(200);
      expect(await (await getProduct(product.id)).json()).toStrictEqual({ ...product, inStock: false });
    });
  });
});

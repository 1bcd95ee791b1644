import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signIn } from '../../services/api/test/support/api.js';
import {
  type ApiWithReadModel,
  startApiWithReadModel,
} from '../../services/api/test/support/api-with-read-model.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };

/** A cursor as the lists mint them (base64url JSON), holding a timestamp of the attacker's choosing. */
const cursorAt = (sort: string, timestamp: string, id: string) =>
  Buffer.from(JSON.stringify({ s: sort, d: 'desc', k: timestamp, i: id, b: false, n: false })).toString(
    'base64url',
  );

describe('Crafted requests to the back office', () => {
  let store: ApiWithReadModel;
  let api: ApiWithReadModel['api'];
  let admin: string;

  beforeAll(async () => {
    store = await startApiWithReadModel({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    });
    api = store.api;
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
  });
  afterAll(() => store?.stop());

  describe('a paging cursor whose timestamp JavaScript reads and Postgres does not (or reads otherwise)', () => {
    const lists = [
      ['/api/admin/orders', 'createdAt', randomUUID()],
      ['/api/admin/customers', 'lastOrderDate', 'ada@example.com'],
      ['/api/admin/license-keys', 'added', randomUUID()],
      ['/api/admin/team', 'created', randomUUID()],
    ] as const;
    const timestamps = [
      '2026-02-30T00:00:00Z',
      '2025-02-29T12:00:00Z',
      '2026-04-31T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:00:00.123456Z',
    ];

    it.each(
      lists.flatMap(([path, sort, id]) =>
        timestamps.map((timestamp) => [path, timestamp, sort, id] as const),
      ),
    )('%s with %s is a 400 naming the cursor', async (path, timestamp, sort, id) => {
      const response = await callApi(
        api.url,
        'GET',
        `${path}?sort=${sort}&dir=desc&cursor=${cursorAt(sort, timestamp, id)}`,
        { cookie: admin },
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/^cursor: /) });
    });

    it.each(lists)('%s still takes a cursor at a real instant', async (path, sort, id) => {
      const response = await callApi(
        api.url,
        'GET',
        `${path}?sort=${sort}&dir=desc&cursor=${cursorAt(sort, '2024-02-29T23:59:59.999Z', id)}`,
        { cookie: admin },
      );
      expect(response.status).toBe(200);
    });
  });

  describe('a path parameter holding what no stored text holds', () => {
    it.each([
      ['GET', '/api/admin/customers/%00', 'U+0000'],
      ['GET', '/api/admin/customers/ada%00@example.com', 'U+0000'],
      ['GET', '/api/admin/customers/%E2%80%AEmoc.elpmaxe@ada', 'U+202E'],
      ['GET', '/api/admin/customers/%1B%5B2J', 'U+001B'],
      ['POST', '/paypal/order/%00/capture', 'U+0000'],
      ['POST', `/api/orders/${randomUUID()}/refunds/%00/retry`, 'U+0000'],
      ['GET', '/objects/uploads/%00', 'U+0000'],
      ['GET', '/api/license-keys/%00/history', 'U+0000'],
    ])('%s %s is a 400 naming the character', async (method, path, character) => {
      const response = await callApi(api.url, method, path, { cookie: admin });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: `Request path: contains a character that cannot be stored (${character})`,
      });
    });

    it('still finds a customer by an address spelled with escapes', async () => {
      const response = await callApi(api.url, 'GET', '/api/admin/customers/nobody%40example.com', {
        cookie: admin,
      });
      expect(response.status).toBe(404);
    });
  });
});

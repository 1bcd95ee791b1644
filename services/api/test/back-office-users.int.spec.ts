import { randomUUID } from 'node:crypto';
import type { BackOfficeUserView } from '@licensestore/contract/back-office';
import { type DatabaseHandle, openDatabase } from '@licensestore/platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signIn, startTestApi, type TestApi } from './support/api.js';
import { expectReadInOrderThrough } from './support/query-plans.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('Back-office users API', () => {
  let api: TestApi;
  let database: DatabaseHandle;
  let admin: string;
  let counter = 0;

  const call = (method: string, path: string, options: { cookie?: string; body?: unknown } = {}) =>
    callApi(api.url, method, path, options);
  const answer = async (response: Response) => ({
    status: response.status,
    body: response.status === 204 ? null : await response.json(),
  });
  const uniqueName = (stem: string) => `${stem}-${++counter}`;
  const addUser = async (role: 'admin' | 'auditor', username = uniqueName(role)) => {
    const password = `${username} password`;
    const response = await call('POST', '/api/admin/users', {
      cookie: admin,
      body: { username, password, role },
    });
    expect(response.status).toBe(201);
    return { ...((await response.json()) as BackOfficeUserView), password };
  };
  const roleOf = async (cookie: string) =>
    ((await (await call('GET', '/api/admin/status', { cookie })).json()) as { role: string | null }).role;

  beforeAll(async () => {
    api = await startTestApi({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
    database = openDatabase(api.databaseUrl);
    admin = await signIn(api.url, ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await database?.close();
    await api?.stop();
  });

  describe('list', () => {
    it('starts with the first admin, who is an admin from before roles existed', async () => {
      const response = await call('GET', '/api/admin/users', { cookie: admin });
      expect(response.headers.get('cache-control')).toBe('no-store');
      const users = (await response.json()) as BackOfficeUserView[];
      expect(users[0]).toEqual({
        id: expect.stringMatching(UUID),
        username: 'admin',
        role: 'admin',
        createdAt: expect.stringMatching(ISO),
      });
    });
  });

  describe('the Team screen’s page (GET /api/admin/team)', () => {
    it('pages oldest first, filters by role, and refuses a bad role with a 400 naming it', async () => {
      for (let index = 0; index < 3; index += 1) await addUser('auditor');
      const everyone = (await (
        await call('GET', '/api/admin/users', { cookie: admin })
      ).json()) as BackOfficeUserView[];
      const paged: BackOfficeUserView[] = [];
      let cursor: string | null = null;
      do {
        const response = await call('GET', `/api/admin/team?limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
          cookie: admin,
        });
        expect(response.headers.get('cache-control')).toBe('no-store');
        const page = (await response.json()) as { items: BackOfficeUserView[]; nextCursor: string | null };
        expect(page.items.length).toBeLessThanOrEqual(2);
        paged.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      expect(paged).toEqual(everyone);

      const auditors = (await (
        await call('GET', '/api/admin/team?role=auditor', { cookie: admin })
      ).json()) as {
        items: BackOfficeUserView[];
      };
      expect(auditors.items).toEqual(everyone.filter((user) => user.role === 'auditor'));
      expect(await answer(await call('GET', '/api/admin/team?role=owner', { cookie: admin }))).toEqual({
        status: 400,
        body: { error: expect.stringContaining('role') },
      });
    });

    it('reads through an index, already in order, with or without the role', async () => {
      for (const [filter, index] of [
        ['TRUE', 'admin_users_created_idx'],
        [`role = 'auditor'`, 'admin_users_role_created_idx'],
      ] as const) {
        await expectReadInOrderThrough(
          database.pool,
          `SELECT id FROM admin_users WHERE ${filter} AND (created_at, id) > ('2026-01-01', '${randomUUID()}')
             ORDER BY created_at, id LIMIT 26`,
          index,
        );
      }
    });
  });

  describe('create', () => {
    it('adds an auditor who signs in as one; only the password hash is stored', async () => {
      const auditor = await addUser('auditor');
      expect(auditor).toMatchObject({
        id: expect.stringMatching(UUID),
        role: 'auditor',
        createdAt: expect.stringMatching(ISO),
      });

      const users = (await (
        await call('GET', '/api/admin/users', { cookie: admin })
      ).json()) as BackOfficeUserView[];
      expect(users.at(-1)).toEqual({
        id: auditor.id,
        username: auditor.username,
        role: 'auditor',
        createdAt: auditor.createdAt,
      });
      const row = await database.db
        .selectFrom('admin_users')
        .select('password_hash')
        .where('id', '=', auditor.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$scrypt\$/);
      expect(row.password_hash).not.toContain(auditor.password);

      expect(await roleOf(await signIn(api.url, auditor.username, auditor.password))).toBe('auditor');
    });

    it('adds another admin', async () => {
      const second = await addUser('admin');
      expect(await roleOf(await signIn(api.url, second.username, second.password))).toBe('admin');
    });

    it('refuses a username taken in another letter case with 409', async () => {
      const taken = await addUser('auditor', uniqueName('Dana'));
      const response = await call('POST', '/api/admin/users', {
        cookie: admin,
        body: { username: taken.username.toUpperCase(), password: 'another long password', role: 'admin' },
      });
      expect(await answer(response)).toEqual({
        status: 409,
        body: {
          error: `A user named "${taken.username.toUpperCase()}" already exists (usernames ignore case and character width)`,
        },
      });
    });

    /** A refusal in plain words under its field, the same sentence as the answer's error. */
    const refused = (field: string, sentence: string) => ({ error: sentence, fields: { [field]: sentence } });
    it.each([
      // A field missing altogether is described as every route describes a request of the wrong shape.
      [{ password: 'long enough password', role: 'auditor' }, { error: 'username: is required' }],
      [
        { username: '  ', password: 'long enough password', role: 'auditor' },
        refused('username', 'The username is required.'),
      ],
      [
        { username: 'two words', password: 'long enough password', role: 'auditor' },
        refused('username', 'The username must not contain spaces or control characters.'),
      ],
      [
        { username: 'eve', password: 'short', role: 'auditor' },
        refused('password', 'The password must be at least 12 characters.'),
      ],
      [
        { username: 'eve', password: 'long enough password' },
        refused('role', 'The role must be one of admin, auditor.'),
      ],
      [
        { username: 'eve', password: 'long enough password', role: 'owner' },
        refused('role', 'The role must be one of admin, auditor.'),
      ],
    ])('answers 400 for %j', async (request, body) => {
      expect(await answer(await call('POST', '/api/admin/users', { cookie: admin, body: request }))).toEqual({
        status: 400,
        body,
      });
    });
  });

  describe('delete', () => {
    it('removes a user and ends the sessions they have', async () => {
      const auditor = await addUser('auditor');
      const session = await signIn(api.url, auditor.username, auditor.password);
      expect(await roleOf(session)).toBe('auditor');

      expect(await answer(await call('DELETE', `/api/admin/users/${auditor.id}`, { cookie: admin }))).toEqual(
        {
          status: 204,
          body: null,
        },
      );
      expect(await roleOf(session)).toBeNull();
      expect((await call('GET', '/api/orders', { cookie: session })).status).toBe(401);
      const users = (await (
        await call('GET', '/api/admin/users', { cookie: admin })
      ).json()) as BackOfficeUserView[];
      expect(users.map((user) => user.id)).not.toContain(auditor.id);
    });

    it('refuses to delete the signed-in admin themselves, so the last admin always stays', async () => {
      const [first] = (await (
        await call('GET', '/api/admin/users', { cookie: admin })
      ).json()) as BackOfficeUserView[];
      expect(await answer(await call('DELETE', `/api/admin/users/${first?.id}`, { cookie: admin }))).toEqual({
        status: 409,
        body: { error: 'You cannot delete your own account' },
      });
    });

    it('lets only one of two admins deleting each other at once succeed', async () => {
      const [one, two] = [await addUser('admin'), await addUser('admin')];
      const [oneSession, twoSession] = [
        await signIn(api.url, one.username, one.password),
        await signIn(api.url, two.username, two.password),
      ];
      const outcomes = await Promise.all([
        call('DELETE', `/api/admin/users/${two.id}`, { cookie: oneSession }),
        call('DELETE', `/api/admin/users/${one.id}`, { cookie: twoSession }),
      ]);
      // The loser is refused as no longer an admin (403), or, when the winner got there first, signed out (401).
      const statuses = outcomes.map((response) => response.status);
      expect(statuses.filter((status) => status === 204)).toHaveLength(1);
      expect(statuses.filter((status) => status === 401 || status === 403)).toHaveLength(1);
      const left = await database.db
        .selectFrom('admin_users')
        .select('id')
        .where('id', 'in', [one.id, two.id])
        .execute();
      expect(left).toHaveLength(1);
    });

    it('answers 404 for a user that does not exist', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        expect(await answer(await call('DELETE', `/api/admin/users/${id}`, { cookie: admin }))).toEqual({
          status: 404,
          body: { error: 'User not found' },
        });
      }
    });
  });
});

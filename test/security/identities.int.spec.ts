import { randomUUID } from 'node:crypto';
import { checkoutStream, orderStream } from '@licensestore/domain';
import { openDatabase } from '@licensestore/platform/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMigrator, migrateApi } from '../../services/api/src/migrations/index.js';
import { callApi, signIn, startTestApi } from '../../services/api/test/support/api.js';
import {
  type ApiWithReadModel,
  startApiWithReadModel,
} from '../../services/api/test/support/api-with-read-model.js';
import { readEvents } from '../../services/api/test/support/checkout.js';
import { purchase } from '../../services/api/test/support/purchase.js';
import { createTestDatabase } from '../support/database.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const STRONG = 'a long enough password';

describe('Back-office identities', () => {
  let store: ApiWithReadModel;
  let admin: string;

  const addUser = (username: string, password = STRONG) =>
    callApi(store.api.url, 'POST', '/api/admin/users', {
      cookie: admin,
      body: { username, password, role: 'auditor' },
    });

  beforeAll(async () => {
    store = await startApiWithReadModel({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    });
    admin = await signIn(store.api.url, ADMIN.username, ADMIN.password);
  });
  afterAll(() => store?.stop());

  describe('usernames', () => {
    it.each(['ａｄｍｉｎ', 'ADMIN', 'Ａｄｍｉｎ'])('refuses %s beside admin as taken', async (username) => {
      const response = await addUser(username);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({
        error: `A user named "${username}" already exists (usernames ignore case and character width)`,
      });
    });

    it.each([
      ['\u0430dmin', 'a Cyrillic а'],
      ['adm\u0456n', 'a Cyrillic і'],
      ['\u0391DMIN', 'a Greek Α'],
      ['adrnin', 'r and n for m'],
      ['\u0251dmin', 'a Latin alpha'],
    ])('refuses %s (%s) as a look-alike of admin', async (username) => {
      const response = await addUser(username);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({
        error: `"${username.normalize('NFC')}" looks like the existing user "admin": choose a username nobody could mistake for another`,
      });
    });

    it('refuses a look-alike of any user, not only of admin', async () => {
      const name = `kim-${randomUUID().slice(0, 6)}`;
      expect((await addUser(name)).status).toBe(201);
      const twin = name.replace('i', '\u0456').replace('m', 'rn');
      expect((await addUser(twin)).status).toBe(409);
    });

    it.each(['ADMIN', 'ａｄｍｉｎ'])('signs %s in as admin', async (username) => {
      const response = await callApi(store.api.url, 'POST', '/api/admin/login', {
        body: { username, password: ADMIN.password },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, username: 'admin' });
    });

    it('keeps the name as typed, and finds the user by any spelling of it', async () => {
      const name = `Zoë-${randomUUID().slice(0, 6)}`;
      const created = await addUser(name);
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ username: name });
      expect(await signIn(store.api.url, name.toUpperCase(), STRONG)).toMatch(/^sid=/);
    });
  });

  describe('passwords', () => {
    it.each([
      [
        'aaaaaaaaaaaa',
        'The password is too easy to guess: Repeated characters like "aaa" are easy to guess.',
      ],
      ['password1234', 'The password is too easy to guess: This is similar to a commonly used password.'],
      ['short', 'The password must be at least 12 characters.'],
    ])('refuses %s, saying why in plain words, under the password field', async (password, message) => {
      const response = await addUser(`kim-${randomUUID().slice(0, 6)}`, password);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; fields: Record<string, string> };
      expect(body.error).toContain(message);
      expect(Object.keys(body.fields)).toEqual(['password']);
      expect(body.fields.password).toContain(message);
    });

    it('refuses to seed the first admin with an ADMIN_PASSWORD easy to guess', async () => {
      await expect(startTestApi({ env: { ADMIN_PASSWORD: 'aaaaaaaaaaaa' } })).rejects.toThrow(
        /ADMIN_PASSWORD: is too easy to guess/,
      );
    });
  });

  describe('correlation ids', () => {
    it("never link a purchase's events under the id a client sent", async () => {
      const productId = await store.productWithKeys(1);
      // The correlation id of another order's events, as an attacker would send it to join that timeline.
      const [someoneElses] = await readEvents(store.eventStore, `product-${productId}`);
      const planted = someoneElses?.metadata.correlationId ?? 'seed';
      const { orderId, paypalOrderId } = await purchase(store.api.url, productId, undefined, {
        'X-Correlation-Id': planted,
      });
      const events = [
        ...(await readEvents(store.eventStore, checkoutStream(paypalOrderId))),
        ...(await readEvents(store.eventStore, orderStream(orderId))),
      ];
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(event.metadata.correlationId).not.toBe(planted);
    });
  });
});

describe('The migration that keys usernames', () => {
  const migrateBeforeKeys = async (databaseUrl: string, usernames: string[]) => {
    const database = openDatabase(databaseUrl, { max: 1 });
    const { error } = await apiMigrator(database.db).migrateTo('2026-11-24-audit-verifications');
    expect(error).toBeUndefined();
    for (const username of usernames) {
      await sql`INSERT INTO admin_users (id, username, password_hash) VALUES (${randomUUID()}, ${username}, 'x')`.execute(
        database.db,
      );
    }
    return database;
  };

  it('keys every existing user', async () => {
    const database = await migrateBeforeKeys(await createTestDatabase(), ['Admin', 'ｋｉｍ']);
    try {
      await migrateApi(database.db);
      const rows = await database.db
        .selectFrom('admin_users')
        .select(['username', 'username_key'])
        .orderBy('username_key')
        .execute();
      expect(rows).toEqual([
        { username: 'Admin', username_key: 'admin' },
        { username: 'ｋｉｍ', username_key: 'kim' },
      ]);
    } finally {
      await database.close();
    }
  });

  it('stops, naming them, when two existing users share a key', async () => {
    const database = await migrateBeforeKeys(await createTestDatabase(), ['admin', 'ａｄｍｉｎ']);
    try {
      await expect(migrateApi(database.db)).rejects.toThrow(
        'back-office usernames that differ only in letter case or character width: "admin" and "ａｄｍｉｎ"',
      );
    } finally {
      await database.close();
    }
  });
});

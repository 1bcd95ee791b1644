// A backup of a running store brought back into an empty one: the log as it was, the read models rebuilt and
// verified, and the restored store going on where the first one stopped.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { EventStore } from '@licensestore/domain/events';
import { createPool } from '@licensestore/platform/db';
import { decodePosition, openBareEventStore } from '@licensestore/platform/eventstore';
import { silentLogger } from '@licensestore/platform/logging';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { takeBackup } from '../../scripts/backup/backup.js';
import {
  EVENTS_FILE,
  MANIFEST_FILE,
  type Manifest,
  sha256OfFile,
  TABLES_FILE,
} from '../../scripts/backup/format.js';
import {
  openBackup,
  type RestoreSummary,
  restoreBackup,
  restorePoint,
} from '../../scripts/backup/restore.js';
import { callApi, signIn } from '../../services/api/test/support/api.js';
import { readEvents } from '../../services/api/test/support/checkout.js';
import { type ObservedStore, startObservedStore } from '../../services/api/test/support/observed-store.js';
import { type Purchase, purchase } from '../../services/api/test/support/purchase.js';
import { createTestDatabase } from '../support/database.js';
import { mailFiles } from '../support/mail.js';
import { backupSource, wholeLog } from './backup-source.js';

const WAIT = { timeout: 30_000, interval: 100 };
const PASSPHRASE = 'correct horse battery staple';
const ADMIN = { username: 'owner', password: 'Backups-are-only-as-good-as-their-restores-7' };
const IMAGE = join('products', 'box.png');

/** What a target holds: events (null without an event log), kept rows, and its DATA_DIR's secret and uploads. */
async function targetState(databaseUrl: string, dataDir: string) {
  const pool = createPool(databaseUrl, 1);
  try {
    const count = async (table: string) => {
      const { rows } = await pool.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [
        table,
      ]);
      if (!rows[0]?.found) return null;
      return Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n);
    };
    return {
      events: await count('event_store.events'),
      adminUsers: await count('admin_users'),
      secret: existsSync(join(dataDir, 'secrets', 'licence-key-secret')),
      uploads: existsSync(join(dataDir, 'uploads')),
    };
  } finally {
    await pool.end();
  }
}

const orderView = async (url: string, orderId: string) =>
  (await (await callApi(url, 'GET', `/api/orders/${orderId}`)).json()) as {
    receiptNumber: string | null;
    status: string;
  };

const keysOf = async (url: string, bought: Purchase) =>
  (
    (await (
      await callApi(url, 'GET', `/api/orders/${bought.orderId}/items`, { cookie: bought.orderCookie })
    ).json()) as Array<{
      licenseKeys?: string[];
    }>
  ).flatMap((item) => item.licenseKeys ?? []);

describe('Backup and restore', () => {
  const licenseKeySecret = randomBytes(32).toString('base64url');
  let sourceDir: string;
  let backupDir: string;
  let source: ObservedStore;
  let kept: Purchase;
  let refunded: Purchase;
  let unfinished: Purchase;
  let keptKeys: string[];
  let image: Buffer;
  let manifest: Manifest;
  const year = new Date().getUTCFullYear();
  const copies: string[] = [];

  beforeAll(async () => {
    sourceDir = await mkdtemp(join(tmpdir(), 'backup-source-'));
    backupDir = join(await mkdtemp(join(tmpdir(), 'backup-')), 'store');
    source = await startObservedStore({
      env: {
        LICENSE_KEY_SECRET: licenseKeySecret,
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        DATA_DIR: sourceDir,
      },
    });
    const url = source.api.url;
    const productId = await source.productWithKeys(4);
    kept = await purchase(url, productId, { customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' });
    refunded = await purchase(url, productId, {
      customerName: 'Grace Hopper',
      customerEmail: 'grace@example.com',
    });
    for (const bought of [kept, refunded]) {
      await vi.waitFor(async () => {
        const events = (await readEvents(source.eventStore, `order-${bought.orderId}`)).map(
          (event) => event.type,
        );
        expect(events).toContain('DeliveryEmailSent');
        expect(events).toContain('OrderReceiptIssued');
      }, WAIT);
    }
    const admin = await source.api.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
    const refund = await callApi(url, 'POST', `/api/orders/${refunded.orderId}/refunds`, {
      cookie: admin,
      body: { all: true, reason: 'Bought by mistake' },
    });
    expect(refund.status, await refund.clone().text()).toBe(201);
    await vi.waitFor(
      async () => expect((await orderView(url, refunded.orderId)).status).toBe('refunded'),
      WAIT,
    );
    // The buyer's browser shows its keys, and an admin reveals one: showings the log records.
    keptKeys = await keysOf(url, kept);
    expect(keptKeys).toHaveLength(1);
    const [line] = (await (
      await callApi(url, 'GET', `/api/orders/${kept.orderId}/items`, { cookie: admin })
    ).json()) as Array<{
      licenseKeyIds?: string[];
    }>;
    const reveal = await callApi(url, 'POST', `/api/license-keys/${line?.licenseKeyIds?.[0]}/reveal`, {
      cookie: admin,
    });
    expect(((await reveal.json()) as { licenseKey: string }).licenseKey).toBe(keptKeys[0]);
    // Paid, but not yet served when the backup is taken: no workers to give it keys, e-mail it or number its receipt.
    await source.stopWorkers();
    unfinished = await purchase(url, productId, {
      customerName: 'Barbara Liskov',
      customerEmail: 'barbara@example.com',
    });
    expect(
      (await readEvents(source.eventStore, `order-${unfinished.orderId}`)).map((event) => event.type),
    ).toEqual(['OrderCaptured']);
    await source.database.pool.query(
      `INSERT INTO testimonials (customer_name, rating, comment, location, date)
       VALUES ('Ada Lovelace', 5, 'Keys arrived at once.', 'London', '2026-12-01')`,
    );
    // An image as the upload route leaves it in DATA_DIR/uploads.
    image = randomBytes(2048);
    await mkdir(join(sourceDir, 'uploads', 'products'), { recursive: true });
    await writeFile(join(sourceDir, 'uploads', IMAGE), image);
  });
  afterAll(async () => {
    await source?.stop();
    for (const dir of [sourceDir, dirname(backupDir), ...copies])
      await rm(dir, { recursive: true, force: true });
  });

  it('takes a backup of the running store, its secret encrypted, with a manifest of counts, checksums and the chain', async () => {
    const { options, close } = await backupSource(source.databaseUrl, {
      uploadsDir: join(sourceDir, 'uploads'),
      licenseKeySecret,
      passphrase: PASSPHRASE,
    });
    try {
      const summary = await takeBackup({ ...options, out: backupDir });
      manifest = summary.manifest;
      const rate = Math.round(manifest.events.count / (summary.eventsMs / 1000));
      console.log(
        `backup: ${manifest.events.count} events in ${Math.round(summary.eventsMs)} ms (${rate} events/s)`,
      );
    } finally {
      await close();
    }
    const log = await wholeLog(source.databaseUrl);
    expect(manifest.events.count).toBeGreaterThan(20);
    expect(manifest.events.count).toBeLessThanOrEqual(log.length);
    expect(manifest.tables.rows).toEqual({ admin_users: 1, audit_verifications: 0, testimonials: 1 });
    expect(manifest.uploads).toMatchObject({
      kind: 'local',
      files: [{ path: IMAGE, bytes: 2048, copied: true }],
    });
    expect(manifest.secrets?.holds).toEqual(['LICENCE_KEY_SECRET']);
    for (const file of await readdir(backupDir)) {
      if (file === 'uploads') continue;
      expect(await readFile(join(backupDir, file), 'utf8'), file).not.toContain(licenseKeySecret);
    }
    expect(manifest.events.sha256).toBe(await sha256OfFile(join(backupDir, EVENTS_FILE)));
  });

  describe('restored into an empty database and DATA_DIR', () => {
    let targetUrl: string;
    let targetDir: string;
    let summary: RestoreSummary;
    let restored: ObservedStore;

    beforeAll(async () => {
      targetUrl = await createTestDatabase();
      targetDir = await mkdtemp(join(tmpdir(), 'backup-target-'));
      summary = await restoreBackup({
        backup: await openBackup(backupDir, PASSPHRASE),
        databaseUrl: targetUrl,
        dataDir: targetDir,
        log: silentLogger,
      });
      const rate = Math.round(summary.events / (summary.eventsMs / 1000));
      console.log(
        `restore: ${summary.events} events written in ${Math.round(summary.eventsMs)} ms (${rate} events/s)`,
      );
    });
    afterAll(async () => {
      await restored?.stop();
      await rm(targetDir, { recursive: true, force: true });
    });

    it('holds the log exactly as the backup took it: ids, streams, revisions, data, metadata, times and order', async () => {
      const original = (await wholeLog(source.databaseUrl)).slice(0, manifest.events.count);
      expect(BigInt(original.at(-1)?.global_position)).toBe(
        decodePosition(manifest.events.lastPosition as string)[1],
      );
      expect(await wholeLog(targetUrl)).toEqual(original);
      expect(summary.events).toBe(manifest.events.count);
    });

    it('rebuilds every read model, and reads the log back as the backup holds it', () => {
      expect(summary.rebuilt.length).toBeGreaterThan(0);
      expect(summary.verify.passed).toBe(true);
      expect(summary.verify.events).toBe(manifest.events.count);
    });

    it('puts back the back-office users, the uploaded image and the license-key secret', async () => {
      expect(summary.tables).toEqual({ admin_users: 1, audit_verifications: 0, testimonials: 1 });
      const pool = createPool(targetUrl, 1);
      try {
        const { rows } = await pool.query('SELECT customer_name FROM testimonials');
        expect(rows).toEqual([{ customer_name: 'Ada Lovelace' }]);
      } finally {
        await pool.end();
      }
      expect(await readFile(join(targetDir, 'uploads', IMAGE))).toEqual(image);
      expect((await readFile(summary.secretFile, 'utf8')).trim()).toBe(licenseKeySecret);
    });

    describe('then started', () => {
      let url: string;
      let next: Purchase;

      beforeAll(async () => {
        restored = await startObservedStore({
          databaseUrl: targetUrl,
          env: {
            LICENSE_KEY_SECRET: (await readFile(summary.secretFile, 'utf8')).trim(),
            DATA_DIR: targetDir,
          },
        });
        url = restored.api.url;
        const productId = await restored.productWithKeys(1);
        next = await purchase(url, productId, {
          customerName: 'Linus Torvalds',
          customerEmail: 'linus@example.com',
        });
        await vi.waitFor(async () => {
          for (const bought of [next, unfinished]) {
            const events = (await readEvents(restored.eventStore, `order-${bought.orderId}`)).map(
              (event) => event.type,
            );
            expect(events).toContain('DeliveryEmailSent');
            expect(events).toContain('OrderReceiptIssued');
          }
          const { rows } = await restored.database.pool.query('SELECT 1 FROM reactor_job_intents LIMIT 1');
          expect(rows).toEqual([]);
        }, WAIT);
      });

      it('opens the sealed keys and honours the buyers’ links', async () => {
        expect(await keysOf(url, kept)).toEqual(keptKeys);
      });

      it('signs the admin in', async () => {
        expect(await signIn(url, ADMIN.username, ADMIN.password)).toMatch(/^sid=/);
      });

      it('numbers the next receipts after the last one, and gives the new order a key', async () => {
        expect((await orderView(url, kept.orderId)).receiptNumber).toBe(`${year}-000001`);
        expect((await orderView(url, refunded.orderId)).receiptNumber).toBe(`${year}-000002`);
        const numbers = [
          (await orderView(url, unfinished.orderId)).receiptNumber,
          (await orderView(url, next.orderId)).receiptNumber,
        ];
        expect(numbers.sort()).toEqual([`${year}-000003`, `${year}-000004`]);
        expect(await keysOf(url, next)).toHaveLength(1);
      });

      it('finishes what was unfinished at backup time: the paid order gets its key, its e-mail and its receipt', async () => {
        const events = (await readEvents(restored.eventStore, `order-${unfinished.orderId}`)).map(
          (event) => event.type,
        );
        expect(events).toContain('DeliveryEmailSent');
        expect(await keysOf(url, unfinished)).toHaveLength(1);
      });

      it('does nothing again for the old orders: no e-mail, receipt or refund, their streams as they were', async () => {
        const mails = [...(await mailFiles(restored.mailDir)).values()];
        expect(mails.flatMap((mail) => mail.to).sort()).toEqual(['barbara@example.com', 'linus@example.com']);
        const backedUp = await wholeLog(source.databaseUrl);
        for (const bought of [kept, refunded]) {
          const stream = `order-${bought.orderId}`;
          const before = backedUp
            .slice(0, manifest.events.count)
            .filter((event) => event.stream_id === stream)
            .map((event) => event.event_id);
          const after = (await readEvents(restored.eventStore, stream)).map((event) => event.id);
          expect(after).toEqual(before);
        }
      });
    });
  });

  /** A copy of the backup to spoil. */
  const copyOfBackup = async () => {
    const parent = await mkdtemp(join(tmpdir(), 'backup-copy-'));
    copies.push(parent);
    const copy = join(parent, 'store');
    await cp(backupDir, copy, { recursive: true });
    return copy;
  };

  /** Moves one event of a backup's log a year back, a change every reader of a line takes as valid; returns the file. */
  const backdateLine = async (backup: string, index: number) => {
    const events = join(backup, EVENTS_FILE);
    const lines = (await readFile(events, 'utf8')).split('\n');
    lines[index] = (lines[index] as string).replace(
      /"recordedAt":"(\d{4})/,
      (_, year: string) => `"recordedAt":"${Number(year) - 1}`,
    );
    await writeFile(events, lines.join('\n'));
    return events;
  };

  describe('up to a chosen moment', () => {
    const backupLines = async () =>
      (await readFile(join(backupDir, EVENTS_FILE), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { position: string; recordedAt: string });
    const restoreUntil = async (until: string) => {
      const targetUrl = await createTestDatabase();
      const targetDir = await mkdtemp(join(tmpdir(), 'backup-until-'));
      try {
        const summary = await restoreBackup({
          backup: await openBackup(backupDir, PASSPHRASE),
          until: restorePoint(until),
          databaseUrl: targetUrl,
          dataDir: targetDir,
          log: silentLogger,
        });
        return { summary, log: await wholeLog(targetUrl) };
      } finally {
        await rm(targetDir, { recursive: true, force: true });
      }
    };

    it('restores the log up to a position, and verifies the read models built from it', async () => {
      const lines = await backupLines();
      const middle = Math.floor(lines.length / 2);
      const position = lines[middle - 1]?.position as string;
      const { summary, log } = await restoreUntil(position);
      expect(summary.events).toBe(middle);
      expect(summary.lastPosition).toBe(position);
      expect(summary.verify.passed).toBe(true);
      expect(log).toEqual((await wholeLog(source.databaseUrl)).slice(0, middle));
    });

    it('restores the log up to a time: every event before the first one recorded after it', async () => {
      const lines = await backupLines();
      const at = lines[Math.floor(lines.length / 3)]?.recordedAt as string;
      const prefix = lines.findIndex((line) => line.recordedAt > at);
      expect(prefix).toBeGreaterThan(0);
      const { summary, log } = await restoreUntil(at);
      expect(summary.events).toBe(prefix);
      expect(summary.verify.passed).toBe(true);
      expect(log).toEqual((await wholeLog(source.databaseUrl)).slice(0, prefix));
    });
  });

  it('stops a restore whose event log changed after it was checked, rather than restore what it now says', async () => {
    const copy = await copyOfBackup();
    const backup = await openBackup(copy, PASSPHRASE);
    const events = await backdateLine(copy, 0);
    const targetDir = await mkdtemp(join(tmpdir(), 'backup-changed-'));
    copies.push(targetDir);
    await expect(
      restoreBackup({
        backup,
        databaseUrl: await createTestDatabase(),
        dataDir: targetDir,
        log: silentLogger,
      }),
    ).rejects.toThrow(`${events} changed after it was checked`);
  });

  describe('refuses, changing nothing,', () => {
    let targetDir: string;
    beforeAll(async () => {
      targetDir = await mkdtemp(join(tmpdir(), 'backup-refused-'));
    });
    afterAll(() => rm(targetDir, { recursive: true, force: true }));

    const restoreInto = async (databaseUrl: string, from = backupDir, passphrase = PASSPHRASE) =>
      restoreBackup({
        backup: await openBackup(from, passphrase),
        databaseUrl,
        dataDir: targetDir,
        log: silentLogger,
      });
    const untouched = { events: null, adminUsers: null, secret: false, uploads: false };

    it('a target whose log holds events', async () => {
      const targetUrl = await createTestDatabase();
      const store: EventStore = await openBareEventStore({ databaseUrl: targetUrl });
      await store.append(
        `product-${randomUUID()}`,
        [
          {
            type: 'ProductDeleted',
            data: {},
            metadata: {
              actor: { type: 'system', id: 'test' },
              correlationId: 'c',
              causationId: 'c',
              schemaVersion: 1,
            },
          },
        ],
        'any',
      );
      await store.close();
      await expect(restoreInto(targetUrl)).rejects.toThrow(
        'the target is not empty: its event log holds events',
      );
      expect(await targetState(targetUrl, targetDir)).toEqual({ ...untouched, events: 1 });
    });

    it('a part whose checksum does not match, naming it', async () => {
      const copy = await copyOfBackup();
      const tables = join(copy, TABLES_FILE);
      await writeFile(tables, (await readFile(tables, 'utf8')).replace(ADMIN.username, 'mallory'));
      const targetUrl = await createTestDatabase();
      await expect(restoreInto(targetUrl, copy)).rejects.toThrow(
        `${join(copy, TABLES_FILE)} does not match its SHA-256 in the manifest`,
      );
      expect(await targetState(targetUrl, targetDir)).toEqual(untouched);
    });

    it('an event log whose chain does not hold, though its checksum was forged to match, naming the line', async () => {
      const copy = await copyOfBackup();
      const events = await backdateLine(copy, 1);
      const forged = JSON.parse(await readFile(join(copy, MANIFEST_FILE), 'utf8')) as Manifest;
      forged.events.sha256 = await sha256OfFile(events);
      await writeFile(join(copy, MANIFEST_FILE), JSON.stringify(forged));
      const targetUrl = await createTestDatabase();
      await expect(restoreInto(targetUrl, copy)).rejects.toThrow(
        `${EVENTS_FILE} line 2: its hash does not match its contents`,
      );
      expect(await targetState(targetUrl, targetDir)).toEqual(untouched);
    });

    it('a wrong passphrase', async () => {
      const targetUrl = await createTestDatabase();
      await expect(restoreInto(targetUrl, backupDir, 'not the passphrase at all')).rejects.toThrow(
        'wrong passphrase',
      );
      expect(await targetState(targetUrl, targetDir)).toEqual(untouched);
    });
  });
});

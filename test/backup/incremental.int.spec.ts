// Increments after a full backup, and the folder `backup --follow` keeps beside a running store: each part holds
// only what came after the one before, and a restore puts the parts back together into the whole log.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordedOrThrow } from '@licensestore/domain/events';
import { createPool } from '@licensestore/platform/db';
import { openBareEventStore, RowDigest, rowReadBack } from '@licensestore/platform/eventstore';
import { silentLogger } from '@licensestore/platform/logging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupOptions, takeBackup, takeIncrementIfChanged } from '../../scripts/backup/backup.js';
import { followBackups } from '../../scripts/backup/follow.js';
import { EVENTS_FILE, MANIFEST_FILE, type Manifest } from '../../scripts/backup/format.js';
import { openBackup, type RestorePoint, restoreBackup } from '../../scripts/backup/restore.js';
import { checkRestoredLog, DigestingReads } from '../../scripts/backup/restored-log-check.js';
import {
  type ApiWithReadModel,
  startApiWithReadModel,
} from '../../services/api/test/support/api-with-read-model.js';
import { createTestDatabase } from '../support/database.js';
import { backupSource, followWhileTheStoreChanges, wholeLog } from './backup-source.js';

const PASSPHRASE = 'increments are only as good as their chain';

describe('Incremental backups', () => {
  const licenseKeySecret = randomBytes(32).toString('base64url');
  let source: ApiWithReadModel;
  let work: string;
  let sourceDir: string;
  let options: Omit<BackupOptions, 'out'>;
  let close: () => Promise<unknown>;

  const addImage = async (name: string) => {
    await mkdir(join(sourceDir, 'uploads', 'products'), { recursive: true });
    await writeFile(join(sourceDir, 'uploads', 'products', name), randomBytes(512));
  };
  const restoreInto = async (dirs: string | string[], until?: RestorePoint) => {
    const dataDir = await mkdtemp(join(work, 'restored-'));
    const databaseUrl = await createTestDatabase();
    const summary = await restoreBackup({
      backup: await openBackup(dirs, PASSPHRASE),
      until,
      databaseUrl,
      dataDir,
      log: silentLogger,
    });
    return { summary, databaseUrl, dataDir };
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'backup-increments-'));
    sourceDir = join(work, 'source');
    source = await startApiWithReadModel({ env: { LICENSE_KEY_SECRET: licenseKeySecret } });
    ({ options, close } = await backupSource(source.databaseUrl, {
      uploadsDir: join(sourceDir, 'uploads'),
      licenseKeySecret,
      passphrase: PASSPHRASE,
    }));
  });
  afterAll(async () => {
    await close?.();
    await source?.stop();
    await rm(work, { recursive: true, force: true });
  });

  describe('taken with --since', () => {
    const full = () => join(work, 'full');
    const first = () => join(work, 'increment-1');
    const second = () => join(work, 'increment-2');

    beforeAll(async () => {
      await source.productWithKeys(2);
      await addImage('first.png');
      await takeBackup({ ...options, out: full() });
      await source.productWithKeys(3);
      await addImage('second.png');
      await takeBackup({ ...options, out: first(), since: full() });
      await source.productWithKeys(1);
      await takeBackup({ ...options, out: second(), since: first() });
    });

    it('hold only what came after the part before, their chain going on from its head', async () => {
      const [a, b, c] = (await openBackup([full(), first(), second()], PASSPHRASE)).parts.map(
        (part) => part.manifest,
      );
      expect([a?.kind, b?.kind, c?.kind]).toEqual(['full', 'increment', 'increment']);
      expect(b?.since).toEqual({
        createdAt: a?.createdAt,
        lastPosition: a?.events.lastPosition,
        count: a?.events.count,
        chainHead: a?.events.chain.head,
      });
      expect(c?.events.chain.genesis).toBe(b?.events.chain.head);
      expect((a?.events.count ?? 0) + (b?.events.count ?? 0) + (c?.events.count ?? 0)).toBe(
        (await wholeLog(source.databaseUrl)).length,
      );
      const firstLine = JSON.parse((await readFile(join(first(), EVENTS_FILE), 'utf8')).split('\n')[0] ?? '');
      expect(firstLine.seq).toBe((a?.events.count ?? 0) + 1);
      // The secret is sealed once, in the full backup; an image is copied once, by the first part that saw it.
      expect([a?.secrets?.holds, b?.secrets, c?.secrets]).toEqual([['LICENCE_KEY_SECRET'], null, null]);
      const copied = (manifest: typeof a) =>
        manifest?.uploads.kind === 'local'
          ? manifest.uploads.files.filter((file) => file.copied).map((file) => file.path)
          : [];
      expect([copied(a), copied(b), copied(c)]).toEqual([
        [join('products', 'first.png')],
        [join('products', 'second.png')],
        [],
      ]);
      expect(c?.uploads.kind === 'local' && c.uploads.files.length).toBe(2);
    });

    it('restore together into the whole log, every image, the log read back as the backup holds it', async () => {
      const { summary, databaseUrl, dataDir } = await restoreInto([full(), first(), second()]);
      expect(await wholeLog(databaseUrl)).toEqual(await wholeLog(source.databaseUrl));
      // Checked on the rebuild's read of the log, with no second read.
      expect(summary.verify).toMatchObject({ passed: true, readBack: false });
      expect(summary.partsUsed).toBe(3);
      for (const name of ['first.png', 'second.png']) {
        expect(await readFile(join(dataDir, 'uploads', 'products', name))).toEqual(
          await readFile(join(sourceDir, 'uploads', 'products', name)),
        );
      }
    });

    it('catch a restored log that does not read back as the backup holds it, naming the event', async () => {
      const backup = await openBackup([full(), first(), second()], PASSPHRASE);
      const { summary, databaseUrl } = await restoreInto([full(), first(), second()]);
      // The check as a restore makes it, against the digest of the log as restored: the rebuild's read in one pass.
      const bare = await openBareEventStore({ databaseUrl });
      const written = new RowDigest();
      for (const event of (await bare.readAll(null, 10_000)).map(recordedOrThrow)) {
        written.add(rowReadBack(event, true));
      }
      await bare.close();
      const check = async () => {
        const reads = new DigestingReads(await openBareEventStore({ databaseUrl }), true);
        try {
          let after: string | null = null;
          for (let batch = await reads.store.readAll(after, 7); batch.length > 0; ) {
            after = batch.at(-1)?.position ?? null;
            batch = await reads.store.readAll(after, 7);
          }
          return await checkRestoredLog(databaseUrl, backup.parts, written, reads);
        } finally {
          await reads.store.close();
        }
      };
      const pool = createPool(databaseUrl, 1);
      try {
        expect(await check()).toMatchObject({ passed: true, events: summary.events, readBack: false });
        await pool.query(
          `UPDATE event_store.events SET data = data || '{"tampered": true}'
            WHERE global_position = (SELECT min(global_position) + 2 FROM event_store.events)`,
        );
        const changed = await check();
        expect(changed).toMatchObject({ passed: false, readBack: true });
        expect(changed.difference).toMatch(/^event 3 \(.+\) reads back unlike its backup line$/);
        await pool.query(`UPDATE event_store.events SET data = data - 'tampered'`);
        expect((await check()).passed).toBe(true);
        await pool.query(
          'DELETE FROM event_store.events WHERE global_position = (SELECT max(global_position) FROM event_store.events)',
        );
        expect((await check()).difference).toBe(
          `the log ends after ${summary.events - 1} events, not ${summary.events}`,
        );
      } finally {
        await pool.end();
      }
    });

    it('restore up to a position inside the first increment, reading no part after it', async () => {
      const backup = await openBackup([full(), first(), second()], PASSPHRASE);
      const inFirst = (backup.parts[1]?.manifest.events.firstPosition ?? '') as string;
      const { summary, databaseUrl } = await restoreInto([full(), first(), second()], {
        position: inFirst,
      });
      expect(summary.partsUsed).toBe(2);
      expect(summary.lastPosition).toBe(inFirst);
      expect((await wholeLog(databaseUrl)).length).toBe((backup.parts[0]?.manifest.events.count ?? 0) + 1);
      expect(summary.verify.passed).toBe(true);
    });

    it('refuse an increment without the full backup it goes on from', async () => {
      await expect(openBackup([first(), second()], PASSPHRASE)).rejects.toThrow(
        `${first()} is an increment: restore it after the full backup it goes on from`,
      );
    });

    it('refuse a missing increment, naming the part that does not go on from the one before it', async () => {
      await expect(openBackup([full(), second()], PASSPHRASE)).rejects.toThrow(
        `${second()} does not go on from ${full()}, the part before it`,
      );
    });

    it('refuse a part listing an image that no part holds, naming the image and the part', async () => {
      const forged = join(work, 'forged-increment');
      await cp(first(), forged, { recursive: true });
      const manifest = JSON.parse(await readFile(join(forged, MANIFEST_FILE), 'utf8')) as Manifest;
      if (manifest.uploads.kind !== 'local') throw new Error('the increment lists no local images');
      manifest.uploads.files.push({
        path: 'products/ghost.png',
        bytes: 1,
        sha256: 'a'.repeat(64),
        copied: false,
      });
      await writeFile(join(forged, MANIFEST_FILE), JSON.stringify(manifest));
      await expect(openBackup([full(), forged], PASSPHRASE)).rejects.toThrow(
        `image products/ghost.png of ${forged} is held by no part of the backup`,
      );
    });

    it('write nothing when nothing changed, if asked only for news', async () => {
      const out = join(work, 'nothing-new');
      expect(await takeIncrementIfChanged({ ...options, out, since: second() })).toBeNull();
      expect(existsSync(out)).toBe(false);
    });
  });

  describe('kept by backup --follow', () => {
    it('adds an increment of what is new within a turn, and a restore of the folder is the whole log', async () => {
      const folder = join(work, 'follow');
      let kept = 0;
      await followWhileTheStoreChanges(
        source,
        {
          ...options,
          dir: folder,
          onPart: ({ summary: { manifest } }) => {
            kept = (manifest.since?.count ?? 0) + manifest.events.count;
          },
        },
        () => kept,
      );
      const parts = await readdir(folder);
      expect(parts[0]).toBe('00000001-full');
      expect(parts.slice(1).every((name) => name.endsWith('-increment'))).toBe(true);
      expect(parts.length).toBeGreaterThanOrEqual(3);

      // A run killed while writing leaves a half-written part under a dot-name: not a part, and dropped on restart.
      await mkdir(join(folder, '.incoming'));
      await writeFile(join(folder, '.incoming', EVENTS_FILE), '{"half":');
      const { summary, databaseUrl } = await restoreInto(folder);
      expect(summary.partsUsed).toBe(parts.length);
      expect(await wholeLog(databaseUrl)).toEqual(await wholeLog(source.databaseUrl));
      expect(summary.verify.passed).toBe(true);

      const again = new AbortController();
      await source.productWithKeys(1);
      await followBackups({
        ...options,
        dir: folder,
        everyMs: 100,
        fullEveryMs: 3_600_000,
        signal: again.signal,
        onPart: () => again.abort(),
        onError: (error) => {
          throw error;
        },
      });
      expect(await readdir(folder)).toEqual([
        ...parts,
        `${String(parts.length + 1).padStart(8, '0')}-increment`,
      ]);
    });
  });
});

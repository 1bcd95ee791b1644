// `backup --follow --ship s3://…` and `restore s3://…` against a real S3-speaking server (s3rver, in-process on a
// free port): parts go up whole, manifest last, and a restore takes only the parts whose manifest is there.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { silentLogger } from '@licensestore/platform/logging';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type ApiWithReadModel,
  startApiWithReadModel,
} from '../../services/api/test/support/api-with-read-model.js';
import { backupSource, followWhileTheStoreChanges, wholeLog } from '../../test/backup/backup-source.js';
import { createTestDatabase } from '../../test/support/database.js';
import { spawnBackupScript } from '../../test/support/spawned.js';
import { type BackupOptions, takeBackup, takeIncrementIfChanged } from './backup.js';
import { wholePartNames } from './follow.js';
import { EVENTS_FILE, MANIFEST_FILE, TABLES_FILE } from './format.js';
import { openBackup, restoreBackup } from './restore.js';
import { downloadBackup, type S3Location, S3Shipper, s3Client } from './s3-shipping.js';

const PASSPHRASE = 'parts in a bucket, manifests last';
const BUCKET = 'backups';

async function keysIn(client: S3Client, bucket: string, prefix: string): Promise<string[]> {
  const { Contents } = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (Contents ?? []).map(({ Key }) => Key ?? '').sort();
}

describe('Backups shipped to S3', () => {
  const licenseKeySecret = randomBytes(32).toString('base64url');
  let server: S3rver;
  let endpoint: string;
  let client: S3Client;
  let source: ApiWithReadModel;
  let work: string;
  let options: Omit<BackupOptions, 'out'>;
  let close: () => Promise<unknown>;
  const s3Env = () => ({
    BACKUP_S3_ENDPOINT: endpoint,
    BACKUP_S3_ACCESS_KEY_ID: 'S3RVER',
    BACKUP_S3_SECRET_ACCESS_KEY: 'S3RVER',
  });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'backup-s3-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: join(work, 's3rver'),
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
    client = s3Client({
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    source = await startApiWithReadModel({ env: { LICENSE_KEY_SECRET: licenseKeySecret } });
    ({ options, close } = await backupSource(source.databaseUrl, {
      uploadsDir: join(work, 'uploads'),
      licenseKeySecret,
      passphrase: PASSPHRASE,
    }));
    await source.productWithKeys(2);
    await mkdir(join(work, 'uploads', 'products'), { recursive: true });
    await writeFile(join(work, 'uploads', 'products', 'first.png'), randomBytes(512));
  });
  afterAll(async () => {
    client?.destroy();
    await close?.();
    await source?.stop();
    await server?.close();
    await rm(work, { recursive: true, force: true });
  });

  describe('by backup --follow', () => {
    const folder = () => join(work, 'follow');
    const location: S3Location = { bucket: BUCKET, prefix: 'shop/continuous' };

    beforeAll(async () => {
      const shipper = new S3Shipper(client, location);
      const eventsIn = new Map<string, number>();
      const shipped: string[] = [];
      await followWhileTheStoreChanges(
        source,
        {
          ...options,
          dir: folder(),
          onPart: ({ dir, summary: { manifest } }) => {
            eventsIn.set(basename(dir), (manifest.since?.count ?? 0) + manifest.events.count);
          },
          ship: async (dir) => {
            shipped.push(...(await shipper.shipPending(dir)));
          },
        },
        () => eventsIn.get(shipped.at(-1) ?? ''),
      );
      expect(shipped).toEqual(await wholePartNames(folder()));
    });

    it('uploads every file of every part under PREFIX/<part name>/', async () => {
      const expected: string[] = [];
      for (const name of await wholePartNames(folder())) {
        for (const file of await readdir(join(folder(), name), { recursive: true, withFileTypes: true })) {
          const path = relative(join(folder(), name), join(file.parentPath, file.name)).split(sep).join('/');
          if (file.isFile()) expected.push(`shop/continuous/${name}/${path}`);
        }
      }
      expect(expected).toContain(`shop/continuous/00000001-full/uploads/products/first.png`);
      expect(expected.length).toBeGreaterThanOrEqual(3 * 3);
      expect(await keysIn(client, BUCKET, 'shop/continuous/')).toEqual(expected.sort());
    });

    it('restores from s3://BUCKET/PREFIX with npm run restore: the whole log, read back as the backup holds it', async () => {
      const databaseUrl = await createTestDatabase();
      const dataDir = await mkdtemp(join(work, 'restored-'));
      const restore = spawnBackupScript('restore-cli.ts', [`s3://${BUCKET}/shop/continuous`], {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        BACKUP_PASSPHRASE: PASSPHRASE,
        ...s3Env(),
      });
      const code = await restore.exited;
      const output = restore.output.join('\n');
      const parts = (await wholePartNames(folder())).length;
      expect(output).toContain(`downloaded ${parts} parts from s3://${BUCKET}/shop/continuous`);
      expect(output).toContain(`(${parts} parts, ${parts} used)`);
      expect(output).toContain('log checked: all');
      expect(code).toBe(0);
      expect(await wholeLog(databaseUrl)).toEqual(await wholeLog(source.databaseUrl));
    });

    it('takes no part whose manifest is not in the bucket', async () => {
      const names = await wholePartNames(folder());
      const before = (await wholeLog(source.databaseUrl)).length;
      await source.productWithKeys(1);
      const unshipped = join(work, 'unshipped');
      const increment = await takeIncrementIfChanged({
        ...options,
        out: unshipped,
        since: join(folder(), names.at(-1) ?? ''),
      });
      expect(increment?.manifest.events.count).toBeGreaterThan(0);
      // The files of the next part, as an upload that died before the manifest leaves them.
      const next = `${String(names.length + 1).padStart(8, '0')}-increment`;
      for (const file of [EVENTS_FILE, TABLES_FILE]) {
        await client.send(
          new PutObjectCommand({
            Bucket: BUCKET,
            Key: `shop/continuous/${next}/${file}`,
            Body: await readFile(join(unshipped, file)),
          }),
        );
      }

      const into = await mkdtemp(join(work, 'downloaded-'));
      expect(await downloadBackup(client, location, into)).toEqual(names);
      const backup = await openBackup(into, PASSPHRASE);
      expect(backup.head.count).toBe(before);
      const databaseUrl = await createTestDatabase();
      const summary = await restoreBackup({
        backup,
        databaseUrl,
        dataDir: await mkdtemp(join(work, 'restored-')),
        log: silentLogger,
      });
      expect(summary.events).toBe(before);
      expect(summary.verify.passed).toBe(true);
    });
  });

  it('ships again, in order, what a failed upload left unshipped', async () => {
    const folder = join(work, 'retry');
    await takeBackup({ ...options, out: join(folder, '00000001-full') });
    await source.productWithKeys(1);
    await takeIncrementIfChanged({
      ...options,
      out: join(folder, '00000002-increment'),
      since: join(folder, '00000001-full'),
    });
    await source.productWithKeys(1);
    await takeIncrementIfChanged({
      ...options,
      out: join(folder, '00000003-increment'),
      since: join(folder, '00000002-increment'),
    });
    const location = { bucket: BUCKET, prefix: 'retry' };
    const flaky = s3Client({
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    // The connection drops once, as the second part's manifest goes up.
    let dropped = false;
    flaky.middlewareStack.add(
      (next) => async (args) => {
        const { Key } = args.input as { Key?: string };
        if (!dropped && Key === `retry/00000002-increment/${MANIFEST_FILE}`) {
          dropped = true;
          throw new Error('socket hang up');
        }
        return next(args);
      },
      { step: 'initialize' },
    );
    const shipper = new S3Shipper(flaky, location);
    await expect(shipper.shipPending(folder)).rejects.toThrow('socket hang up');
    const downloadedNow = async () =>
      downloadBackup(client, location, await mkdtemp(join(work, 'downloaded-')));
    expect(await keysIn(client, BUCKET, 'retry/00000002-increment/')).toContain(
      `retry/00000002-increment/${EVENTS_FILE}`,
    );
    expect(await downloadedNow()).toEqual(['00000001-full']);

    expect(await shipper.shipPending(folder)).toEqual(['00000002-increment', '00000003-increment']);
    expect(await shipper.shipPending(folder)).toEqual([]);
    const into = await mkdtemp(join(work, 'downloaded-'));
    expect(await downloadBackup(client, location, into)).toEqual([
      '00000001-full',
      '00000002-increment',
      '00000003-increment',
    ]);
    expect((await openBackup(into, PASSPHRASE)).head.count).toBe((await wholeLog(source.databaseUrl)).length);
    flaky.destroy();
  });

  it("refuses to ship a folder's parts where another backup's parts of the same names are", async () => {
    const location = { bucket: BUCKET, prefix: 'shared' };
    const first = join(work, 'first-folder');
    const second = join(work, 'second-folder');
    await takeBackup({ ...options, out: join(first, '00000001-full') });
    await takeBackup({ ...options, out: join(second, '00000001-full') });
    expect(await new S3Shipper(client, location).shipPending(first)).toEqual(['00000001-full']);
    await expect(new S3Shipper(client, location).shipPending(second)).rejects.toThrow(
      `s3://${BUCKET}/shared/00000001-full is another backup's part than ${join(second, '00000001-full')}`,
    );
    // The same folder started again finds its part shipped.
    expect(await new S3Shipper(client, location).shipPending(first)).toEqual([]);
    expect(await keysIn(client, BUCKET, `shared/00000001-full/${MANIFEST_FILE}`)).toHaveLength(1);
  });

  it('ships with npm run backup -- --follow --ship s3://BUCKET/PREFIX until told to stop, then exits 0', async () => {
    const folder = join(work, 'cli-follow');
    const following = spawnBackupScript(
      'backup-cli.ts',
      ['--out', folder, '--follow', '--every', '0.2', '--ship', `s3://${BUCKET}/cli`],
      {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: source.databaseUrl,
        LICENSE_KEY_SECRET: licenseKeySecret,
        BACKUP_PASSPHRASE: PASSPHRASE,
        ...s3Env(),
      },
    );
    await vi.waitFor(
      () => expect(following.output).toContain(`shipped 00000001-full to s3://${BUCKET}/cli/00000001-full`),
      { timeout: 30_000, interval: 100 },
    );
    await source.productWithKeys(1);
    await vi.waitFor(
      () =>
        expect(following.output).toContain(
          `shipped 00000002-increment to s3://${BUCKET}/cli/00000002-increment`,
        ),
      { timeout: 30_000, interval: 100 },
    );
    following.child.kill('SIGTERM');
    expect(await following.exited).toBe(0);
    expect(await keysIn(client, BUCKET, 'cli/00000002-increment/manifest.json')).toHaveLength(1);
  });
});

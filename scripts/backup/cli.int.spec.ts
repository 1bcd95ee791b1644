// `npm run backup` and `npm run restore` as the README runs them, minus npm: the restore into a new DATA_DIR starts
// that directory's embedded Postgres itself.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type ApiWithReadModel,
  startApiWithReadModel,
} from '../../services/api/test/support/api-with-read-model.js';
import { spawnBackupScript } from '../../test/support/spawned.js';
import { newRecipientKeys } from './sealed-secrets.js';

const PASSPHRASE = 'a passphrase kept apart from the backups';

async function run(script: string, args: string[], env: Record<string, string>) {
  const spawned = spawnBackupScript(script, args, { NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env });
  const code = await spawned.exited;
  return { code, output: spawned.output.join('\n') };
}

describe('npm run backup, then npm run restore into a new DATA_DIR', () => {
  const licenseKeySecret = randomBytes(32).toString('base64url');
  let source: ApiWithReadModel;
  let work: string;
  const restoredDirs: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'backup-cli-'));
    source = await startApiWithReadModel({ env: { LICENSE_KEY_SECRET: licenseKeySecret } });
    await source.productWithKeys(3);
  });
  afterAll(async () => {
    await source?.stop();
    for (const dir of [work, ...restoredDirs]) await rm(dir, { recursive: true, force: true });
  });

  it('refuses without BACKUP_PASSPHRASE (exit 2), writing nothing', async () => {
    const out = join(work, 'none');
    const { code, output } = await run('backup-cli.ts', ['--out', out], {
      DATABASE_URL: source.databaseUrl,
      LICENSE_KEY_SECRET: licenseKeySecret,
    });
    expect(code).toBe(2);
    expect(output).toContain('BACKUP_PASSPHRASE');
    expect(existsSync(out)).toBe(false);
  });

  it('backs up the running store and restores it, printing what it restored and the verification', async () => {
    const out = join(work, 'backup');
    const backup = await run('backup-cli.ts', ['--out', out], {
      DATABASE_URL: source.databaseUrl,
      LICENSE_KEY_SECRET: licenseKeySecret,
      BACKUP_PASSPHRASE: PASSPHRASE,
    });
    expect(backup.output).toMatch(/events: \d+ up to position \d{20}\/\d{20}/);
    expect(backup.code).toBe(0);

    // A DATA_DIR of its own in the temporary directory, as `npm start` would be given one (Postgres must reach it).
    const dataDir = await mkdtemp(join(tmpdir(), 'backup-cli-restored-'));
    restoredDirs.push(dataDir);
    const restore = await run('restore-cli.ts', [out], { DATA_DIR: dataDir, BACKUP_PASSPHRASE: PASSPHRASE });
    expect(restore.output).toContain('log checked: all');
    expect(restore.output).toMatch(/events: all of \d+/);
    expect(restore.code).toBe(0);
    expect((await readFile(join(dataDir, 'secrets', 'licence-key-secret'), 'utf8')).trim()).toBe(
      licenseKeySecret,
    );
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);

    // Again into the same DATA_DIR: its database now holds the log.
    const again = await run('restore-cli.ts', [out], { DATA_DIR: dataDir, BACKUP_PASSPHRASE: PASSPHRASE });
    expect(again.output).toContain('the target is not empty: its event log holds events');
    expect(again.code).toBe(1);
  });

  it('seals the secret for BACKUP_RECIPIENT, and restores with BACKUP_IDENTITY, no passphrase anywhere', async () => {
    const { recipient, identity } = newRecipientKeys();
    const [recipientFile, identityFile] = [join(work, 'recipient.pem'), join(work, 'identity.pem')];
    await writeFile(recipientFile, recipient);
    await writeFile(identityFile, identity, { mode: 0o600 });
    const out = join(work, 'for-recipient');
    const backup = await run('backup-cli.ts', ['--out', out], {
      DATABASE_URL: source.databaseUrl,
      LICENSE_KEY_SECRET: licenseKeySecret,
      BACKUP_RECIPIENT: recipientFile,
    });
    expect(backup.code).toBe(0);

    const dataDir = await mkdtemp(join(tmpdir(), 'backup-cli-restored-'));
    restoredDirs.push(dataDir);
    const withPassphrase = await run('restore-cli.ts', [out], {
      DATA_DIR: dataDir,
      BACKUP_PASSPHRASE: PASSPHRASE,
    });
    expect(withPassphrase.output).toContain('secrets.enc is sealed for a recipient key: set BACKUP_IDENTITY');
    expect(withPassphrase.code).toBe(1);
    const restore = await run('restore-cli.ts', [out], { DATA_DIR: dataDir, BACKUP_IDENTITY: identityFile });
    expect(restore.output).toContain('log checked: all');
    expect(restore.code).toBe(0);
    expect((await readFile(join(dataDir, 'secrets', 'licence-key-secret'), 'utf8')).trim()).toBe(
      licenseKeySecret,
    );
  });

  it('adds an increment with --since, and restores the full backup followed by it', async () => {
    const env = {
      DATABASE_URL: source.databaseUrl,
      LICENSE_KEY_SECRET: licenseKeySecret,
      BACKUP_PASSPHRASE: PASSPHRASE,
    };
    const full = join(work, 'full');
    const increment = join(work, 'increment');
    expect((await run('backup-cli.ts', ['--out', full], env)).code).toBe(0);
    await source.productWithKeys(1);
    const added = await run('backup-cli.ts', ['--out', increment, '--since', full], env);
    expect(added.output).toMatch(/increment written to .*\n {2}events: [1-9]\d* up to position/);
    expect(added.code).toBe(0);

    const dataDir = await mkdtemp(join(tmpdir(), 'backup-cli-restored-'));
    restoredDirs.push(dataDir);
    const restore = await run('restore-cli.ts', [full, increment], {
      DATA_DIR: dataDir,
      BACKUP_PASSPHRASE: PASSPHRASE,
    });
    expect(restore.output).toContain('(2 parts, 2 used)');
    expect(restore.output).toContain('log checked: all');
    expect(restore.code).toBe(0);
  });

  it('keeps backing up with --follow until told to stop, then exits 0', async () => {
    const folder = join(work, 'follow');
    const following = spawnBackupScript('backup-cli.ts', ['--out', folder, '--follow', '--every', '0.2'], {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: source.databaseUrl,
      LICENSE_KEY_SECRET: licenseKeySecret,
      BACKUP_PASSPHRASE: PASSPHRASE,
    });
    await vi.waitFor(() => expect(existsSync(join(folder, '00000001-full'))).toBe(true), {
      timeout: 30_000,
      interval: 100,
    });
    await source.productWithKeys(1);
    await vi.waitFor(() => expect(existsSync(join(folder, '00000002-increment'))).toBe(true), {
      timeout: 30_000,
      interval: 100,
    });
    following.child.kill('SIGTERM');
    expect(await following.exited).toBe(0);
    expect(following.output.join('\n')).toContain(
      `increment written to ${join(folder, '00000002-increment')}`,
    );
  });
});

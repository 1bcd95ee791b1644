import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@licensestore/platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
import { signIn, startTestApi, type TestApi } from './support/api.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run users:add -- …` as the README runs it, minus npm: the script's own command line. */
function addUser(
  args: string[],
  options: { databaseUrl?: string; dataDir?: string; stdin?: string } = {},
): Promise<Run> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'services/api/src/auth/add-user-cli.ts', ...args],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
        ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}),
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run users:add', () => {
  let databaseUrl: string;
  let api: TestApi;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    api = await startTestApi({ databaseUrl });
  });
  afterAll(async () => {
    await api?.stop();
  });

  describe('beside a running npm start, with DATABASE_URL unset', () => {
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'users-cli-'));
    });
    afterAll(async () => {
      await rm(dataDir, { recursive: true, force: true });
    });
    const stackEnv = (url: string) =>
      writeFile(join(dataDir, 'stack.env'), `DATABASE_URL=${url}\nREDIS_URL=redis://127.0.0.1:1\n`);

    it('works on the store named in $DATA_DIR/stack.env, and says so', async () => {
      await stackEnv(databaseUrl);
      const run = await addUser(['--username', 'stackenv-ivy', '--role', 'auditor'], { dataDir });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Added auditor "stackenv-ivy"/);
      expect(run.stderr).toBe(
        `Using the store npm start is running: DATABASE_URL from ${join(dataDir, 'stack.env')}\n`,
      );
    });

    it('refuses with a sentence when no store is running (no stack.env)', async () => {
      const empty = await mkdtemp(join(tmpdir(), 'users-cli-empty-'));
      try {
        const run = await addUser(['--username', 'nobody', '--role', 'auditor'], { dataDir: empty });
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(
          `No store is running here: DATABASE_URL is not set and ${join(empty, 'stack.env')} does not exist. ` +
            'Start the store with `npm start` (or set DATABASE_URL to the store to use).\n',
        );
      } finally {
        await rm(empty, { recursive: true, force: true });
      }
    });

    it('refuses with a sentence when the stack.env left behind names a database that does not answer', async () => {
      // A port just freed: nothing listens there.
      const server = createServer();
      await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
      const { port } = server.address() as { port: number };
      await new Promise((closed) => server.close(closed));
      await stackEnv(`postgres://postgres:secret@127.0.0.1:${port}/postgres`);
      const run = await addUser(['--username', 'nobody', '--role', 'auditor'], { dataDir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `No store is running here: the database ${join(dataDir, 'stack.env')} names`,
      );
      expect(run.stderr).toContain('does not answer');
      expect(run.stderr).not.toContain('secret');
    });
  });

  it('adds an auditor with a generated password, printed once, who can sign in at once', async () => {
    const run = await addUser(['--username', 'ivy', '--role', 'auditor'], { databaseUrl });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const password = /Password \(shown only this once\): ([\w-]{24})\n/.exec(run.stdout)?.[1] ?? '';
    expect(run.stdout).toMatch(/^Added auditor "ivy" \([0-9a-f-]{36}\)\.\n/);

    const database = openDatabase(databaseUrl);
    try {
      const row = await database.db
        .selectFrom('admin_users')
        .select(['role', 'password_hash'])
        .where('username', '=', 'ivy')
        .executeTakeFirstOrThrow();
      expect(row.role).toBe('auditor');
      expect(row.password_hash).not.toContain(password);
    } finally {
      await database.close();
    }
    const session = await signIn(api.url, 'ivy', password);
    const status = await (
      await fetch(`${api.url}/api/admin/status`, { headers: { cookie: session } })
    ).json();
    expect(status).toMatchObject({ isAdmin: false, role: 'auditor' });
  });

  it('takes the password from stdin with --password-stdin and never prints it', async () => {
    const password = 'typed into a pipe 42';
    const run = await addUser(['--username', 'Jon', '--role', 'admin', '--password-stdin'], {
      databaseUrl,
      stdin: `${password}\n`,
    });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).not.toContain(password);
    expect(await signIn(api.url, 'jon', password)).toMatch(/^sid=/);
  });

  it.each(['IVY', 'ｉｖｙ'])(
    'refuses %s, a username taken in another case or width, with exit code 1',
    async (name) => {
      const run = await addUser(['--username', name, '--role', 'auditor'], { databaseUrl });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`A user named "${name}" already exists`);
    },
  );

  it('refuses a look-alike of a username taken (a Cyrillic і in ivy) with a sentence and exit code 1', async () => {
    const run = await addUser(['--username', '\u0456vy', '--role', 'auditor'], { databaseUrl });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('"\u0456vy" looks like the existing user "ivy"');
  });

  it('refuses a password easy to guess with the advice, and exits with 2', async () => {
    const run = await addUser(['--username', 'kim', '--role', 'auditor', '--password-stdin'], {
      databaseUrl,
      stdin: 'aaaaaaaaaaaa\n',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'password: is too easy to guess: Repeated characters like "aaa" are easy to guess.',
    );
  });

  it.each([
    [[], '--username and --role are required'],
    [['--username', 'kim'], '--username and --role are required'],
    [['--username', 'kim', '--role', 'owner'], 'role: must be one of admin, auditor'],
    [['--username', 'kim', '--role', 'auditor', '--colour', 'red'], "Unknown option '--colour'"],
    [
      ['--username', 'kim', '--role', 'auditor', '--password-stdin'],
      'password: must be at least 12 characters',
    ],
  ])('prints the usage and exits with 2 for %j', async (args, message) => {
    const run = await addUser(args, { databaseUrl, stdin: 'short\n' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('usage: npm run users:add -- --username NAME --role admin|auditor');
  });
});

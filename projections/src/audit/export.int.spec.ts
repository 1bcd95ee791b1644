import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type EventStore, type RecordedEvent, recordedOrThrow } from '@licensestore/domain/events';
import {
  checkExport,
  keyIdOf,
  lineHash,
  type Manifest,
  signManifest,
} from '@licensestore/platform/audit-export';
import { writeExport } from '@licensestore/platform/audit-period-export';
import { openEventStore } from '@licensestore/platform/eventstore';
import { createKeyVault } from '@licensestore/platform/key-vault';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/database.js';
import { eventsRecordedIn } from './export.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const RANGE = { from: new Date('2026-01-01T10:00:00.000Z'), to: new Date('2026-01-01T12:00:00.000Z') };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const system = { actor: { type: 'system' as const, id: 'audit-test' }, schemaVersion: 1 };

/** Streams and recorded times in log order; times step back and forth, as commits do in Postgres. */
const HISTORY: Array<{ stream: 'a' | 'b' | 'c'; at: string }> = [
  { stream: 'a', at: '09:59:59.999' }, // just before: out
  { stream: 'b', at: '10:00:00.000' }, // `from` is inclusive
  { stream: 'c', at: '10:30:00.000' },
  { stream: 'a', at: '11:00:00.000' },
  { stream: 'b', at: '12:00:00.000' }, // `to` is exclusive
  { stream: 'c', at: '10:45:00.000' }, // earlier than the line before it in the log: kept in log order
  { stream: 'a', at: '11:15:00.000' },
  { stream: 'b', at: '10:05:00.000' },
  { stream: 'c', at: '13:00:00.000' }, // after: out
  { stream: 'a', at: '11:59:59.999' },
  { stream: 'b', at: '11:30:00.000' },
];
const IN_RANGE = HISTORY.filter(({ at }) => at >= '10:00' && at < '12:00').length;

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey };
}

type Run = { code: number | null; stdout: string; stderr: string };
/** Runs a CLI the way `npm run` does, with only the environment given (never the test's own AUDIT_* keys). */
const runCli = (script: string, args: string[], env: Record<string, string> = {}) =>
  new Promise<Run>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `projections/src/audit/${script}`, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });

const derBase64 = (key: KeyObject) =>
  key.export({ type: key.type === 'private' ? 'pkcs8' : 'spki', format: 'der' }).toString('base64');

describe('audit export', () => {
  let databaseUrl: string;
  let store: EventStore;
  let pool: pg.Pool;
  let dir: string;
  const signer = keyPair();
  const sealed: string[] = [];
  /** The events of HISTORY in log order. */
  let recorded: RecordedEvent[] = [];

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    store = await openEventStore({ databaseUrl });
    pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    dir = await mkdtemp(join(tmpdir(), 'audit-export-'));
    const vault = createKeyVault('a license key secret of at least 32 characters');
    const products = { a: randomUUID(), b: randomUUID(), c: randomUUID() };
    for (const { stream, at } of HISTORY) {
      const key = vault.seal(`KEY-${randomUUID()}`);
      sealed.push(key);
      const id = randomUUID();
      const addedAt = `2026-01-01T${at}Z`;
      const data = {
        productId: products[stream],
        keyId: randomUUID(),
        key,
        fingerprint: sha256(key),
        addedAt,
      };
      const metadata = { ...system, correlationId: id, causationId: id };
      await store.append(
        `licenceKeys-${products[stream]}`,
        [{ id, type: 'LicenceKeyAdded', data, metadata }],
        'any',
      );
      await pool.query('UPDATE event_store.events SET created_at = $1 WHERE event_id = $2', [addedAt, id]);
    }
    recorded = (await store.readAll(null, 100)).map(recordedOrThrow);
  });

  afterAll(async () => {
    await store.close();
    await pool.end();
    await rm(dir, { recursive: true, force: true });
  });

  const exportTo = async (file: string, range = RANGE, signingKey = signer.privateKey) => {
    const manifest = await writeExport({
      events: eventsRecordedIn(store, range, 3),
      range,
      exportedAt: new Date('2026-01-02T00:00:00.000Z'),
      signingKey,
      out: createWriteStream(file),
    });
    await writeFile(`${file}.manifest.json`, JSON.stringify(manifest));
    return manifest;
  };

  describe('when a range is exported', () => {
    let file: string;
    let manifest: Manifest;
    let lines: string[];

    beforeAll(async () => {
      file = join(dir, 'range.ndjson');
      manifest = await exportTo(file);
      lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    });

    it('holds, in log order, the events recorded at or after `from` and before `to`', () => {
      const expected = recorded.filter(
        (event) => event.createdAt >= RANGE.from && event.createdAt < RANGE.to,
      );
      expect(expected).toHaveLength(IN_RANGE);
      const exported = lines.map((line) => JSON.parse(line));
      expect(exported.map((line) => [line.seq, line.id, line.position, line.recordedAt])).toEqual(
        expected.map((event, index) => [index + 1, event.id, event.position, event.createdAt.toISOString()]),
      );
      expect(exported[0]).toMatchObject({
        stream: expected[0]?.streamId,
        type: 'LicenceKeyAdded',
        revision: 0,
      });
      expect(manifest).toMatchObject({
        count: IN_RANGE,
        firstPosition: expected[0]?.position,
        lastPosition: expected.at(-1)?.position,
        finalHash: exported.at(-1).hash,
        from: RANGE.from.toISOString(),
        to: RANGE.to.toISOString(),
      });
    });

    it('carries no sealed license key, only the digest of each', async () => {
      const text = await readFile(file, 'utf8');
      for (const key of sealed) expect(text).not.toContain(key.split('.')[3]);
      const inRange = HISTORY.flatMap(({ at }, index) =>
        at >= '10:00' && at < '12:00' ? [sealed[index]] : [],
      );
      expect(lines.map((line) => JSON.parse(line).data.key)).toEqual(
        inRange.map((key) => `sealed-key:sha256:${sha256(key as string)}`),
      );
    });

    it('checks as complete and unaltered, reading the file line by line', async () => {
      const fileLines = createInterface({
        input: createReadStream(file),
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      expect(await checkExport(fileLines, manifest, signer.publicKey)).toEqual({
        ok: true,
        count: IN_RANGE,
        firstPosition: manifest.firstPosition,
        lastPosition: manifest.lastPosition,
        keyId: manifest.keyId,
      });
    });

    const edit = (index: number, change: (line: Record<string, unknown>) => void) => (all: string[]) =>
      all.map((line, at) => {
        if (at !== index) return line;
        const parsed = JSON.parse(line);
        change(parsed);
        return JSON.stringify(parsed);
      });
    const reHash = (line: Record<string, unknown>) => {
      const { hash: _, ...unhashed } = line;
      line.hash = lineHash(unhashed as { prev: string });
    };
    const other = keyPair();

    const tampering: Array<{
      name: string;
      lines?: (all: string[]) => string[];
      manifest?: (original: Manifest) => unknown;
      line: number | null;
      reason: RegExp;
    }> = [
      {
        name: 'a data field altered',
        lines: edit(2, (line) => {
          (line.data as { keyId: string }).keyId = randomUUID();
        }),
        line: 3,
        reason: /content does not match its hash: the line was altered/,
      },
      {
        name: 'a hash altered',
        lines: edit(2, (line) => {
          line.hash = sha256('forged');
        }),
        line: 3,
        reason: /does not match its hash/,
      },
      {
        name: 'a line altered and re-hashed',
        lines: edit(2, (line) => {
          line.type = 'LicenceKeyRemoved';
          reHash(line);
        }),
        line: 4,
        reason: /prev is not the hash of line 3: that line was altered and re-hashed/,
      },
      {
        name: 'a middle line dropped',
        lines: (all) => all.filter((_, at) => at !== 2),
        line: 3,
        reason: /it is the export's line 4: line 3 is missing here/,
      },
      {
        name: 'two middle lines dropped',
        lines: (all) => all.filter((_, at) => at !== 2 && at !== 3),
        line: 3,
        reason: /it is the export's line 5: lines 3\.\.4 are missing here/,
      },
      {
        name: 'the last line dropped',
        lines: (all) => all.slice(0, -1),
        line: IN_RANGE,
        reason: new RegExp(
          `missing: the file ends after ${IN_RANGE - 1} lines, the manifest lists ${IN_RANGE}`,
        ),
      },
      {
        name: 'two lines swapped',
        lines: (all) => all.map((line, at) => (at === 3 ? all[4] : at === 4 ? all[3] : line) as string),
        line: 4,
        reason: /it is the export's line 5: line 4 is missing here \(dropped or moved\)/,
      },
      {
        name: 'a duplicate line inserted',
        lines: (all) => [...all.slice(0, 3), all[1] as string, ...all.slice(3)],
        line: 4,
        reason: /it is the export's line 2, repeated or moved here/,
      },
      {
        name: 'a line appended',
        lines: (all) => [...all, all.at(-1) as string],
        line: IN_RANGE + 1,
        reason: new RegExp(`the manifest lists ${IN_RANGE} lines: this one was added`),
      },
      {
        name: 'the last line replaced and re-hashed',
        lines: edit(IN_RANGE - 1, (line) => {
          line.type = 'LicenceKeyRemoved';
          reHash(line);
        }),
        line: IN_RANGE,
        reason: /its hash is not the manifest's final hash/,
      },
      {
        name: 'a line cut off',
        lines: (all) => all.map((line, at) => (at === 4 ? line.slice(0, 40) : line)),
        line: 5,
        reason: /not JSON/,
      },
      {
        name: 'a line emptied to an object',
        lines: (all) => all.map((line, at) => (at === 1 ? '{}' : line)),
        line: 2,
        reason: /not an export line \(seq, position, recordedAt, prev, hash\)/,
      },
      {
        name: 'the manifest count edited',
        manifest: (original) => ({ ...original, count: original.count - 1 }),
        line: null,
        reason: /the signature does not hold: the manifest was altered/,
      },
      {
        name: 'the manifest re-signed with another key',
        manifest: ({ signature: _, ...unsigned }) =>
          signManifest({ ...unsigned, count: 3, keyId: keyIdOf(other.publicKey) }, other.privateKey),
        line: null,
        reason: /signed by key [0-9a-f]{16}, not by the trusted key [0-9a-f]{16}/,
      },
      {
        name: "another key's signature under the trusted key's id",
        manifest: ({ signature: _, ...unsigned }) => ({
          ...signManifest(unsigned, other.privateKey),
          keyId: unsigned.keyId,
        }),
        line: null,
        reason: /the signature does not hold/,
      },
      {
        name: 'the manifest not a manifest',
        manifest: ({ genesis: _, ...rest }) => rest,
        line: null,
        reason: /not an audit export manifest \(genesis\)/,
      },
    ];

    for (const { name, lines: alterLines, manifest: alterManifest, line, reason } of tampering) {
      it(`catches ${name} at the first bad line`, async () => {
        const altered = alterLines ? alterLines(lines) : lines;
        const result = await checkExport(
          altered,
          alterManifest ? alterManifest(manifest) : manifest,
          signer.publicKey,
        );
        expect(result).toEqual({ ok: false, line, reason: expect.stringMatching(reason) });
      });
    }

    it('fails when checked against a key other than the one that signed', async () => {
      const result = await checkExport(lines, manifest, other.publicKey);
      expect(result).toMatchObject({
        ok: false,
        line: null,
        reason: expect.stringMatching(/not by the trusted key/),
      });
    });
  });

  describe("when the signer's own export breaks its manifest's claims", () => {
    const signed = async (events: RecordedEvent[]) => {
      const file = join(dir, `claims-${randomUUID()}.ndjson`);
      const manifest = await writeExport({
        events: (async function* () {
          yield* events;
        })(),
        range: RANGE,
        exportedAt: new Date(),
        signingKey: signer.privateKey,
        out: createWriteStream(file),
      });
      return checkExport((await readFile(file, 'utf8')).trimEnd().split('\n'), manifest, signer.publicKey);
    };

    it('catches an event recorded outside the range', async () => {
      expect(await signed(recorded)).toEqual({
        ok: false,
        line: 1,
        reason: "recorded at 2026-01-01T09:59:59.999Z, outside the manifest's range",
      });
    });

    it('catches events out of log order', async () => {
      const inRange = recorded.filter((event) => event.createdAt >= RANGE.from && event.createdAt < RANGE.to);
      expect(await signed([...inRange].reverse())).toMatchObject({
        ok: false,
        line: 2,
        reason: expect.stringMatching(/is not after line 1's: not in log order/),
      });
    });
  });

  it('exports an empty range as a signed empty file that checks', async () => {
    const file = join(dir, 'empty.ndjson');
    const range = { from: new Date('2025-01-01T00:00:00Z'), to: new Date('2025-01-02T00:00:00Z') };
    const manifest = await exportTo(file, range);
    expect(await readFile(file, 'utf8')).toBe('');
    expect(manifest).toMatchObject({
      count: 0,
      firstPosition: null,
      lastPosition: null,
      finalHash: manifest.genesis,
    });
    expect(await checkExport([], manifest, signer.publicKey)).toMatchObject({ ok: true, count: 0 });
  });

  describe('from the command line', () => {
    const env = () => ({ DATABASE_URL: databaseUrl, AUDIT_SIGNING_KEY: derBase64(signer.privateKey) });
    const range = ['--from', '2026-01-01T10:00:00Z', '--to', '2026-01-01T12:00:00Z'];

    it('exports, then proves the file, then points at the first bad line of an altered copy', async () => {
      const file = join(dir, 'cli.ndjson');
      const exported = await runCli('export-cli.ts', [...range, '--out', file], env());
      expect(exported.stderr).toBe('');
      expect(exported).toMatchObject({ code: 0, stdout: expect.stringContaining(`${IN_RANGE} events`) });

      const verifyEnv = { AUDIT_VERIFY_KEY: derBase64(signer.publicKey) };
      const checked = await runCli('check-export-cli.ts', [file], verifyEnv);
      expect(checked).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(
          new RegExp(`^OK: ${IN_RANGE} events, positions \\S+\\.\\.\\S+, signed by key [0-9a-f]{16}\\n$`),
        ),
      });

      const altered = join(dir, 'cli-altered.ndjson');
      const text = (await readFile(file, 'utf8')).split('\n');
      await writeFile(altered, [...text.slice(0, 1), ...text.slice(2)].join('\n'));
      const publicKeyFile = join(dir, 'verify.pem');
      await writeFile(publicKeyFile, signer.publicKey.export({ type: 'spki', format: 'pem' }));
      const caught = await runCli('check-export-cli.ts', [
        altered,
        '--manifest',
        `${file}.manifest.json`,
        '--public-key',
        publicKeyFile,
      ]);
      expect(caught).toMatchObject({
        code: 1,
        stderr: expect.stringContaining(`${altered}: line 2: it is the export's line 3`),
      });
    });

    it('refuses to export without a signing key, and bad usage, with exit 2', async () => {
      const unsigned = await runCli('export-cli.ts', [...range, '--out', join(dir, 'unsigned.ndjson')], {
        DATABASE_URL: databaseUrl,
      });
      expect(unsigned).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('AUDIT_SIGNING_KEY is not set'),
      });
      const badDate = await runCli('export-cli.ts', ['--from', '2026-02-30', '--to', '2026-03-01'], env());
      expect(badDate).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--from 2026-02-30: not a date'),
      });
      const noFile = await runCli('check-export-cli.ts', [], env());
      expect(noFile).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('usage: npm run audit:check-export'),
      });
    });
  });
});

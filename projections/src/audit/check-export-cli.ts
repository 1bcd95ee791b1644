import { createPublicKey, type KeyObject } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  checkExport,
  EVIDENCE_EVENTS_FILE,
  EVIDENCE_MANIFEST_FILE,
} from '@licensestore/platform/audit-export';
import { loadConfig, parseEd25519Key } from '@licensestore/platform/config';
import { strFromU8, unzipSync } from 'fflate';
import { runCli, UsageError } from '../cli-support.js';

const USAGE = `usage: npm run audit:check-export -- FILE [--manifest MANIFEST] [--public-key KEY_FILE]
  Proves FILE is complete and unaltered: exit 0; otherwise names the first bad line and why: exit 1.
  FILE is an export, an evidence pack's events.ndjson, or a whole evidence pack (.zip: its events.ndjson is
  checked against the manifest inside it). MANIFEST defaults to FILE.manifest.json. The trusted key is KEY_FILE (Ed25519 public key, PEM or base64 DER),
  else AUDIT_VERIFY_KEY, else the public half of AUDIT_SIGNING_KEY.`;

async function trustedKey(keyFile: string | undefined): Promise<KeyObject> {
  if (keyFile !== undefined) {
    try {
      return parseEd25519Key(await readFile(keyFile, 'utf8'), 'public');
    } catch (error) {
      throw new UsageError(`--public-key ${keyFile}: ${error instanceof Error ? error.message : error}`);
    }
  }
  const config = loadConfig();
  const key =
    config.AUDIT_VERIFY_KEY ?? (config.AUDIT_SIGNING_KEY && createPublicKey(config.AUDIT_SIGNING_KEY));
  if (!key) throw new UsageError('no key to trust: pass --public-key KEY_FILE or set AUDIT_VERIFY_KEY');
  return key;
}

/** The manifest's JSON, or why there is none to check against (which fails the check: nothing is proven). */
async function readManifest(path: string): Promise<{ json: unknown } | { problem: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return {
      problem: `cannot be read (${(error as NodeJS.ErrnoException).code}): without it nothing is proven`,
    };
  }
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { problem: 'not JSON' };
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { manifest: { type: 'string' }, 'public-key': { type: 'string' } },
  });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new UsageError('name one export file');
  if (!existsSync(file)) throw new UsageError(`${file}: no such file`);
  const publicKey = await trustedKey(values['public-key']);
  const source = (await isZip(file))
    ? await packSource(file)
    : await fileSource(file, values.manifest ?? `${file}.manifest.json`);
  if ('problem' in source) {
    console.error(source.problem);
    return 1;
  }
  const result = await checkExport(source.lines, source.manifest, publicKey);
  if (!result.ok) {
    console.error(
      result.line === null
        ? `${source.manifestName}: ${result.reason}`
        : `${source.linesName}: line ${result.line}: ${result.reason}`,
    );
    return 1;
  }
  const positions = result.count
    ? `positions ${result.firstPosition}..${result.lastPosition}`
    : 'no positions';
  const what = result.orderId ? `evidence pack of order ${result.orderId}: ` : '';
  console.log(`OK: ${what}${result.count} events, ${positions}, signed by key ${result.keyId}`);
  return 0;
}

/** The lines to check and the manifest to check them against, with the names a failure is reported under. */
type Source =
  | {
      lines: AsyncIterable<string> | Iterable<string>;
      manifest: unknown;
      linesName: string;
      manifestName: string;
    }
  | { problem: string };

async function fileSource(file: string, manifestFile: string): Promise<Source> {
  const manifest = await readManifest(manifestFile);
  if ('problem' in manifest) return { problem: `${manifestFile}: ${manifest.problem}` };
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  return { lines, manifest: manifest.json, linesName: file, manifestName: manifestFile };
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

async function isZip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(ZIP_SIGNATURE.length);
    await handle.read(head, 0, head.length, 0);
    return head.equals(ZIP_SIGNATURE);
  } finally {
    await handle.close();
  }
}

/** An evidence pack: its events file and manifest, read from inside the zip. */
async function packSource(file: string): Promise<Source> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(await readFile(file), {
      filter: ({ name }) => name === EVIDENCE_EVENTS_FILE || name === EVIDENCE_MANIFEST_FILE,
    });
  } catch (error) {
    return { problem: `${file}: not a readable zip (${error instanceof Error ? error.message : error})` };
  }
  const events = entries[EVIDENCE_EVENTS_FILE];
  const manifest = entries[EVIDENCE_MANIFEST_FILE];
  if (!events || !manifest) {
    return {
      problem: `${file}: no ${events ? EVIDENCE_MANIFEST_FILE : EVIDENCE_EVENTS_FILE} inside: not an evidence pack, nothing is proven`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(strFromU8(manifest));
  } catch {
    return { problem: `${file}: ${EVIDENCE_MANIFEST_FILE}: not JSON` };
  }
  const text = strFromU8(events);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return {
    lines,
    manifest: json,
    linesName: `${file}: ${EVIDENCE_EVENTS_FILE}`,
    manifestName: `${file}: ${EVIDENCE_MANIFEST_FILE}`,
  };
}

runCli(main, USAGE);

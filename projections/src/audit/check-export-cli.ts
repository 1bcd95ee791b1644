import { createPublicKey, type KeyObject } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { loadConfig, parseEd25519Key } from '@licensestore/shared/config';
import { runCli, UsageError } from '../cli-support.js';
import { checkExport } from './check-export.js';

const USAGE = `usage: npm run audit:check-export -- FILE [--manifest MANIFEST] [--public-key KEY_FILE]
  Proves FILE is complete and unaltered: exit 0; otherwise names the first bad line and why: exit 1.
  MANIFEST defaults to FILE.manifest.json. The trusted key is KEY_FILE (Ed25519 public key, PEM or base64 DER),
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
  const manifestFile = values.manifest ?? `${file}.manifest.json`;

  const manifest = await readManifest(manifestFile);
  if ('problem' in manifest) {
    console.error(`${manifestFile}: ${manifest.problem}`);
    return 1;
  }
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  const result = await checkExport(lines, manifest.json, publicKey);
  if (!result.ok) {
    console.error(
      result.line === null
        ? `${manifestFile}: ${result.reason}`
        : `${file}: line ${result.line}: ${result.reason}`,
    );
    return 1;
  }
  const positions = result.count
    ? `positions ${result.firstPosition}..${result.lastPosition}`
    : 'no positions';
  console.log(`OK: ${result.count} events, ${positions}, signed by key ${result.keyId}`);
  return 0;
}

runCli(main, USAGE);

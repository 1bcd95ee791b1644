import { createWriteStream, existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type ExportRange, writeExport } from '@licensestore/platform/audit-period-export';
import { loadConfig } from '@licensestore/platform/config';
import { z } from 'zod';
import { openConfiguredEventStore, runCli, UsageError } from '../cli-support.js';
import { eventsRecordedIn } from './export.js';

const USAGE = `usage: npm run audit:export -- --from <when> --to <when> [--out FILE]
  Exports, in log order, the events recorded at or after --from and before --to (a range that has ended).
  <when>: a date (YYYY-MM-DD, midnight UTC) or an ISO timestamp with Z or an offset.
  FILE (never overwritten) defaults to audit-export-<from>-<to>.ndjson; the signed manifest goes to
  FILE.manifest.json. Needs AUDIT_SIGNING_KEY; check with npm run audit:check-export -- FILE.`;

const NO_KEY = `AUDIT_SIGNING_KEY is not set: an unsigned export proves nothing to an auditor. Make a key pair once:
  openssl genpkey -algorithm ed25519 -out audit-signing.pem        # keep it secret, e.g. beside the database backups
  openssl pkey -in audit-signing.pem -pubout -out audit-verify.pem # hand this one to auditors
  export AUDIT_SIGNING_KEY="$(cat audit-signing.pem)"`;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const timestamp = z.iso.datetime({ offset: true });

function instant(option: string, text: string | undefined): Date {
  if (text === undefined) throw new UsageError(`--${option} is required`);
  const iso = DAY.test(text) ? `${text}T00:00:00.000Z` : text;
  const value = new Date(iso);
  // A day that does not exist (2026-02-30) rolls over in Date; it is refused instead.
  const valid = timestamp.safeParse(iso).success && (iso === text || value.toISOString() === iso);
  if (!valid || Number.isNaN(value.getTime())) {
    throw new UsageError(
      `--${option} ${text}: not a date (YYYY-MM-DD) or an ISO timestamp with Z or an offset`,
    );
  }
  return value;
}

const compact = (date: Date) => date.toISOString().replace(/[-:]|\.000/g, '');
const defaultFile = ({ from, to }: ExportRange) => `audit-export-${compact(from)}-${compact(to)}.ndjson`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { from: { type: 'string' }, to: { type: 'string' }, out: { type: 'string' } },
  });
  const range = { from: instant('from', values.from), to: instant('to', values.to) };
  const exportedAt = new Date();
  if (range.from >= range.to) throw new UsageError('--from must be before --to');
  // Events of a range still running would keep arriving after the export: it could not be complete.
  if (range.to > exportedAt) throw new UsageError(`--to ${range.to.toISOString()} has not passed yet`);
  const file = values.out ?? defaultFile(range);
  const manifestFile = `${file}.manifest.json`;
  for (const existing of [file, manifestFile].filter((path) => existsSync(path))) {
    throw new UsageError(`${existing} exists: an export is never overwritten`);
  }

  const config = loadConfig();
  const signingKey = config.AUDIT_SIGNING_KEY;
  if (!signingKey) {
    console.error(NO_KEY);
    return 2;
  }
  const { store } = await openConfiguredEventStore(config);
  const out = createWriteStream(file, { flags: 'wx' });
  let created = false;
  out.once('open', () => {
    created = true;
  });
  try {
    const events = eventsRecordedIn(store, range);
    const manifest = await writeExport({ events, range, exportedAt, signingKey, out });
    await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
    const positions = manifest.count ? `, positions ${manifest.firstPosition}..${manifest.lastPosition}` : '';
    console.log(
      `${manifest.count} events${positions}: ${file}, manifest ${manifestFile}, key ${manifest.keyId}`,
    );
    return 0;
  } catch (error) {
    // Without its manifest the file proves nothing; leaving it would only invite mistaking it for an export.
    if (created) await rm(file, { force: true });
    throw error;
  } finally {
    await store.close();
  }
}

runCli(main, USAGE);

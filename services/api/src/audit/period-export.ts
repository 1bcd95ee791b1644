import type { KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { type ExportSigningView, periodExportQuerySchema } from '@licensestore/contract/audit';
import { AppError, TooManyRequestsError, ValidationError } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import { keyIdOf } from '@licensestore/platform/audit-export';
import { eventsRecordedIn, writeExport } from '@licensestore/platform/audit-period-export';
import { type Response, Router } from 'express';
import { strToU8, Zip, ZipDeflate } from 'fflate';
import { parseRequest } from '../http/validation.js';

export const NO_SIGNING_KEY =
  'The signed export needs the audit signing key, which is not set: set AUDIT_SIGNING_KEY (an Ed25519 private key) and restart';

const compact = (date: Date) => date.toISOString().replace(/[-:]|\.\d{3}/g, '');

/** The period asked for, checked as the command line checks it: in order, and over. */
function periodOf(query: unknown, exportedAt: Date) {
  const { from, to = exportedAt } = parseRequest(periodExportQuerySchema, query);
  if (from >= to) throw new ValidationError('The period must start before it ends');
  // Events of a period still running would keep arriving after the export: it could not be complete.
  if (to > exportedAt) {
    throw new ValidationError(`The period must be over: ${to.toISOString()} has not passed yet`);
  }
  return { from, to };
}

/** Writes the zip's bytes to the response as they come, waiting whenever the client reads slower. */
function zipTo(res: Response): { zip: Zip; drained: () => Promise<void> } {
  let pressure: Promise<unknown> | null = null;
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      res.destroy(error);
      return;
    }
    if (!res.write(chunk)) pressure ??= once(res, 'drain').finally(() => (pressure = null));
    if (final) res.end();
  });
  return { zip, drained: async () => void (await pressure) };
}

/**
 * GET /api/audit/export?from&to: the events recorded in a period as `npm run audit:export` writes them (a
 * hash-chained NDJSON file and its signed manifest, which `npm run audit:check-export` verifies), in one zip
 * streamed as it is written, for admins and auditors (the `/audit` routes' guard). GET /api/audit/export/signing
 * says whether a signing key is set, and which, so the back office can say why the export is unavailable.
 */
export function periodExportRoutes({
  eventStore,
  signingKey,
}: {
  eventStore: EventStore;
  signingKey: KeyObject | undefined;
}): Router {
  const router = Router();
  // An export reads the whole log: one at a time is plenty, and keeps the api responsive for everyone else.
  let exporting = false;

  router.get('/audit/export/signing', (_req, res) => {
    const signing: ExportSigningView = { keyId: signingKey ? keyIdOf(signingKey) : null };
    res.set('Cache-Control', 'no-store').json(signing);
  });

  router.get('/audit/export', async (req, res) => {
    const exportedAt = new Date();
    const range = periodOf(req.query, exportedAt);
    if (!signingKey) throw new AppError(503, NO_SIGNING_KEY);
    if (exporting)
      throw new TooManyRequestsError('Another export is being prepared: try again when it is done', 10);
    exporting = true;
    try {
      const name = `audit-export-${compact(range.from)}-${compact(range.to)}`;
      res.set({
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${name}.zip"`,
        'Cache-Control': 'no-store',
      });
      const { zip, drained } = zipTo(res);
      const events = new ZipDeflate(`${name}.ndjson`, { level: 6 });
      zip.add(events);
      const out = new Writable({
        write(chunk: Buffer, _encoding, done) {
          events.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          drained().then(() => done(), done);
        },
        final(done) {
          events.push(new Uint8Array(0), true);
          done();
        },
      });
      const manifest = await writeExport({
        events: eventsRecordedIn(eventStore, range),
        range,
        exportedAt,
        signingKey,
        out,
      });
      const manifestFile = new ZipDeflate(`${name}.ndjson.manifest.json`, { level: 6 });
      zip.add(manifestFile);
      manifestFile.push(strToU8(`${JSON.stringify(manifest, null, 2)}\n`), true);
      zip.end();
    } catch (error) {
      // Once the zip has begun, a failure can only cut it off: a truncated zip is refused by any reader.
      if (res.headersSent) res.destroy(error as Error);
      else throw error;
    } finally {
      exporting = false;
    }
  });

  return router;
}

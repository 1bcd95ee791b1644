import type { KeyObject } from 'node:crypto';
import { AppError, NotFoundError } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import {
  EVIDENCE_EVENTS_FILE,
  EVIDENCE_MANIFEST_FILE,
  evidenceEvents,
} from '@licensestore/platform/audit-export';
import type { Database } from '@licensestore/platform/db';
import type { KeyVault } from '@licensestore/platform/key-vault';
import type { Logger } from '@licensestore/platform/logging';
import { Router } from 'express';
import { strToU8, zipSync } from 'fflate';
import type { Kysely } from 'kysely';
import { requireBackOffice, signedInBackOfficeUser } from '../../auth/guards.js';
import { isUuid } from '../../http/ids.js';
import { keyRevealer } from '../../license-keys/reveal.js';
import { adminUsernames } from '../admin-usernames.js';
import { orderOwnEvents } from '../timeline.js';
import { adminIdsOf, evidenceFacts, withAdminNames } from './facts.js';
import { evidencePdf } from './pdf.js';

export const EVIDENCE_PDF_FILE = 'evidence.pdf';

export interface EvidenceRoutesDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
  keyVault: KeyVault;
  logger: Logger;
  /** The audit export's Ed25519 key; without it no pack is made, as an unsigned one proves nothing. */
  signingKey: KeyObject | undefined;
}

const NO_SIGNING_KEY =
  'Evidence packs are signed with the audit signing key, which is not set: set AUDIT_SIGNING_KEY (an Ed25519 private key) and restart';

/**
 * GET /api/orders/:id/evidence (admins and auditors): one zip a dispute can be answered with, `evidence.pdf` for a
 * person and the order's events as a signed NDJSON export (`events.ndjson` and its manifest) that
 * `npm run audit:check-export` verifies. Keys are masked in both.
 */
export function evidenceRoutes({ db, eventStore, keyVault, logger, signingKey }: EvidenceRoutesDeps): Router {
  const router = Router();
  const reveal = keyRevealer(keyVault, logger);

  router.get('/orders/:id/evidence', requireBackOffice, async (req, res) => {
    const id = req.params.id;
    if (!isUuid(id)) throw new NotFoundError('Order not found');
    const orderId = id.toLowerCase();
    if (!signingKey) throw new AppError(503, NO_SIGNING_KEY);
    const events = await orderOwnEvents(eventStore, orderId);
    const found = events && evidenceFacts(orderId, events, reveal);
    if (!events || !found) throw new NotFoundError('Order not found');
    const user = signedInBackOfficeUser(req);
    const names = await adminUsernames(db, [...adminIdsOf(found), user.id]);
    const facts = withAdminNames(found, names);
    const exportedAt = new Date();
    const { ndjson, manifest } = evidenceEvents({ orderId, events, exportedAt, signingKey });
    const pdf = await evidencePdf(facts, {
      exportedAt: exportedAt.toISOString(),
      eventCount: manifest.count,
      keyId: manifest.keyId,
      finalHash: manifest.finalHash,
      producedFor: `${names.get(user.id) ?? user.id} (${user.role})`,
    });
    const zip = zipSync({
      [EVIDENCE_PDF_FILE]: [pdf, { level: 0 }],
      [EVIDENCE_EVENTS_FILE]: strToU8(ndjson),
      [EVIDENCE_MANIFEST_FILE]: strToU8(`${JSON.stringify(manifest, null, 2)}\n`),
    });
    res
      .set({
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="evidence-${facts.orderNumber.slice(1)}.zip"`,
        'Cache-Control': 'no-store',
      })
      .send(Buffer.from(zip));
  });

  return router;
}

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  AppError,
  type LicenseKeyEvent,
  licenseKeysStream,
  type OrderEvent,
  orderCustodyStream,
  type RevealChannel,
} from '@licensestore/domain';
import {
  type EventStore,
  type NewEvent,
  type NewEventMetadata,
  WrongExpectedRevisionError,
} from '@licensestore/domain/events';
import { uuidText } from '@licensestore/platform/ids';
import { deriveKey } from '@licensestore/platform/key-vault';
import type { Logger } from '@licensestore/platform/logging';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import type { RevealViewer } from './access.js';

/** Keys shown in clear to one person at one time: what a `LicenceKeysRevealed` event records. */
export interface Showing {
  orderId: string;
  keyIds: string[];
  channel: RevealChannel;
  viewer: RevealViewer;
}

/** A key no order holds (stock), shown in clear to an admin from the inventory. */
export interface StockShowing {
  productId: string;
  keyId: string;
  adminId: string;
}

/**
 * A page view whose showing is recorded stays the same page view this long: its event stream reconnecting (every
 * minute, or after a network drop) shows the same keys again without a new record.
 */
export const PAGE_VIEW_MS = 5 * 60 * 1000;

/**
 * One showing is recorded once per clock hour: the same reader (viewer and address) seeing the same keys of the
 * same order through the same door again within it adds nothing a dispute needs, only length to the history. The
 * record keeps the first time in the hour; a showing in the next hour is recorded again.
 */
export const CUSTODY_WINDOW_MS = 60 * 60 * 1000;

/** Appends racing on one custody stream (other readers of the same order) before one gives up and answers 503. */
const APPEND_ATTEMPTS = 5;

/** Keys are not shown in clear without their custody record. */
export class CustodyNotRecordedError extends AppError {
  constructor() {
    super(503, 'The license keys cannot be shown right now; please try again in a moment');
  }
}

export interface KeyCustody {
  /** The HMAC of the caller's address: addresses can be matched across records, not read from them. */
  clientHash(req: Request): string;
  /**
   * Records the showing on the order's custody stream, once per `CUSTODY_WINDOW_MS`; throws
   * `CustodyNotRecordedError` when it is not recorded and could not be.
   */
  record(req: Request, showing: Showing): Promise<void>;
  /** Appends the showing to the product's inventory stream; throws `CustodyNotRecordedError` likewise. */
  recordStock(req: Request, showing: StockShowing): Promise<void>;
  /** A token saying "this showing was recorded for this page view", valid for `PAGE_VIEW_MS`. */
  pageViewToken(req: Request, showing: Showing, now?: number): string;
  /** Whether `token` is a recent page-view token for exactly this showing (same keys, door, viewer, address). */
  recordedInPageView(req: Request, showing: Showing, token: string | undefined, now?: number): boolean;
}

const actorOf = (req: Request, viewer: RevealViewer): NewEventMetadata['actor'] =>
  viewer.type === 'admin'
    ? { type: 'admin', id: viewer.id ?? req.session?.subjectId ?? 'unknown' }
    : { type: 'customer', id: viewer.id ?? 'guest' };

/**
 * Key custody: every showing of license keys in clear becomes a `LicenceKeysRevealed` event on the order's custody
 * stream (`orderCustodyStream`), never on the order's own: reading keys moves neither the revision an admin's
 * If-Match names nor the history the order's commands fold. Both keys derive from the license-key secret every api
 * instance holds, so any instance checks a page-view token another one gave.
 *
 * A showing is recorded once per reader, order, door, keys and hour. Its event id is derived from exactly those
 * (`showingId`), so every instance, before and after a restart, names a repeat the same way, and the event store
 * is what refuses it: the append expects the stream's current revision, and an append of an id the stream
 * already holds is answered as done without storing it again (the Postgres store checks the whole stream under the
 * stream's lock; EventStoreDB, the events after the expected revision). Two requests racing on one showing thus
 * leave one record and both show the keys only once it is stored; a request racing another reader's record gets a
 * wrong-revision error and tries again on the new revision. Redis remembers each recorded id until its hour ends,
 * so a repeat costs one Redis read, not a read and an append; it is a memo, never the guard: lost or unreachable,
 * the store still refuses the repeat, and nothing is marked there before the record is stored.
 */
export function createKeyCustody(
  secret: string,
  eventStore: EventStore,
  redis: Redis,
  logger: Logger,
): KeyCustody {
  const addressKey = deriveKey(secret, 'reveal client address');
  const pageViewKey = deriveKey(secret, 'reveal page view');
  const clientHash = (req: Request) =>
    createHmac('sha256', addressKey)
      .update(req.ip ?? 'unknown')
      .digest('hex');
  /** What tells one showing from another: the order, door, viewer, address and keys. */
  const showingText = (showing: Showing, address: string) =>
    [
      showing.orderId,
      showing.channel,
      showing.viewer.type,
      showing.viewer.id ?? '',
      address,
      [...showing.keyIds].sort().join(','),
    ].join('\n');
  const viewMac = (req: Request, showing: Showing, issuedAt: number) =>
    createHmac('sha256', pageViewKey)
      .update(`${showingText(showing, clientHash(req))}\n${issuedAt}`)
      .digest();
  /** The event id of this showing in this window: a name-based UUID (version 8) of what tells showings apart. */
  const showingId = (showing: Showing, address: string, window: number) =>
    uuidText(
      createHash('sha256')
        .update(`key custody\n${showingText(showing, address)}\n${window}`)
        .digest(),
      8,
    );

  /** Writes one showing's record; no record, no key: a failure withholds the key (503). */
  const recording = async (about: Record<string, unknown>, write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      logger.error(
        { err: error, ...about, alert: 'key-custody-not-recorded' },
        'license keys withheld: their showing could not be recorded',
      );
      throw new CustodyNotRecordedError();
    }
  };
  const metadata = (req: Request, actor: NewEventMetadata['actor']) => ({
    actor,
    correlationId: req.correlationId,
    causationId: req.requestId,
  });
  const memoKey = (id: string) => `key-custody:${id}`;
  const recordedBefore = (id: string) =>
    redis.exists(memoKey(id)).then(
      (found) => found === 1,
      (error: unknown) => {
        logger.warn({ err: error }, 'key custody: Redis did not answer; the event store checks the showing');
        return false;
      },
    );

  return {
    clientHash,
    async record(req, showing) {
      const now = Date.now();
      const address = clientHash(req);
      const window = Math.floor(now / CUSTODY_WINDOW_MS);
      const id = showingId(showing, address, window);
      if (await recordedBefore(id)) return;
      const event: OrderEvent = {
        type: 'LicenceKeysRevealed',
        data: {
          orderId: showing.orderId,
          keyIds: showing.keyIds,
          channel: showing.channel,
          viewer: showing.viewer,
          clientHash: address,
          revealedAt: new Date(now).toISOString(),
        },
      };
      const recorded = { ...event, id, metadata: metadata(req, actorOf(req, showing.viewer)) };
      await recording({ orderId: showing.orderId, channel: showing.channel }, () =>
        appendOnce(eventStore, orderCustodyStream(showing.orderId), recorded),
      );
      await redis
        .set(memoKey(id), '1', 'PX', Math.max((window + 1) * CUSTODY_WINDOW_MS - now, 1))
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'key custody: a recorded showing was not memoised'),
        );
    },
    async recordStock(req, { productId, keyId, adminId }) {
      const event: LicenseKeyEvent = {
        type: 'LicenceKeyRevealed',
        data: {
          productId,
          keyId,
          viewer: { type: 'admin', id: adminId },
          clientHash: clientHash(req),
          revealedAt: new Date().toISOString(),
        },
      };
      const recorded = { ...event, metadata: metadata(req, { type: 'admin', id: adminId }) };
      await recording({ productId, keyId, channel: 'admin-reveal' }, () =>
        eventStore.append(licenseKeysStream(productId), [recorded], 'any'),
      );
    },
    pageViewToken(req, showing, now = Date.now()) {
      return `${now}.${viewMac(req, showing, now).toString('base64url')}`;
    },
    recordedInPageView(req, showing, token, now = Date.now()) {
      const match = token && /^(\d{13})\.([\w-]{43})$/.exec(token);
      if (!match) return false;
      const issuedAt = Number(match[1]);
      if (issuedAt > now || now - issuedAt > PAGE_VIEW_MS) return false;
      return timingSafeEqual(viewMac(req, showing, issuedAt), Buffer.from(match[2] as string, 'base64url'));
    },
  };
}

/**
 * Appends `event` (its id set) unless the stream holds it already, on the stream's current revision, again on the
 * new one when another record took it meanwhile. See `createKeyCustody` for why a repeat is never stored twice.
 */
async function appendOnce(eventStore: EventStore, stream: string, event: NewEvent): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const last = await eventStore.readLastEvent(stream);
    if (last?.id === event.id) return;
    try {
      await eventStore.append(stream, [event], last ? last.revision : 'no_stream');
      return;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt === APPEND_ATTEMPTS) throw error;
    }
  }
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  AppError,
  type LicenceKeyEvent,
  licenceKeysStream,
  type OrderEvent,
  orderStream,
  parseOrderEvent,
  type RevealChannel,
} from '@licensestore/shared';
import type { EventStore, NewEvent, NewEventMetadata } from '@licensestore/shared/eventstore';
import { deriveKey } from '@licensestore/shared/key-vault';
import type { Logger } from '@licensestore/shared/logging';
import type { Request } from 'express';
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

/** Keys are not shown in clear without their custody record. */
export class CustodyNotRecordedError extends AppError {
  constructor() {
    super(503, 'The license keys cannot be shown right now; please try again in a moment');
  }
}

export interface KeyCustody {
  /** The HMAC of the caller's address: addresses can be matched across records, not read from them. */
  clientHash(req: Request): string;
  /** Appends the showing to the order's stream; throws `CustodyNotRecordedError` when it could not be recorded. */
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
 * Key custody: every showing of licence keys in clear becomes a `LicenceKeysRevealed` event on the order's stream,
 * appended with no expected revision (a showing is a fact that never conflicts with the order's other events, so
 * it never waits for or retries against them). Both keys derive from the licence-key secret every api instance
 * holds, so any instance checks a page-view token another one gave.
 */
export function createKeyCustody(secret: string, eventStore: EventStore, logger: Logger): KeyCustody {
  const addressKey = deriveKey(secret, 'reveal client address');
  const pageViewKey = deriveKey(secret, 'reveal page view');
  const clientHash = (req: Request) =>
    createHmac('sha256', addressKey)
      .update(req.ip ?? 'unknown')
      .digest('hex');
  const viewMac = (req: Request, showing: Showing, issuedAt: number) =>
    createHmac('sha256', pageViewKey)
      .update(
        [
          showing.orderId,
          showing.channel,
          showing.viewer.type,
          showing.viewer.id ?? '',
          clientHash(req),
          [...showing.keyIds].sort().join(','),
          issuedAt,
        ].join('\n'),
      )
      .digest();

  /** Appends one showing with no expected revision; no showing, no key: a failure withholds the key (503). */
  const append = async (stream: string, event: NewEvent, about: Record<string, unknown>) => {
    try {
      await eventStore.append(stream, [event], 'any');
    } catch (error) {
      logger.error(
        { err: error, ...about, alert: 'key-custody-not-recorded' },
        'licence keys withheld: their showing could not be recorded',
      );
      throw new CustodyNotRecordedError();
    }
  };
  const metadata = (req: Request, actor: NewEventMetadata['actor']) => ({
    actor,
    correlationId: req.correlationId,
    causationId: req.requestId,
  });

  return {
    clientHash,
    async record(req, showing) {
      const event: OrderEvent = {
        type: 'LicenceKeysRevealed',
        data: {
          orderId: showing.orderId,
          keyIds: showing.keyIds,
          channel: showing.channel,
          viewer: showing.viewer,
          clientHash: clientHash(req),
          revealedAt: new Date().toISOString(),
        },
      };
      await append(
        orderStream(showing.orderId),
        { ...event, metadata: metadata(req, actorOf(req, showing.viewer)) },
        { orderId: showing.orderId, channel: showing.channel },
      );
    },
    async recordStock(req, { productId, keyId, adminId }) {
      const event: LicenceKeyEvent = {
        type: 'LicenceKeyRevealed',
        data: {
          productId,
          keyId,
          viewer: { type: 'admin', id: adminId },
          clientHash: clientHash(req),
          revealedAt: new Date().toISOString(),
        },
      };
      await append(
        licenceKeysStream(productId),
        { ...event, metadata: metadata(req, { type: 'admin', id: adminId }) },
        { productId, keyId, channel: 'admin-reveal' },
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
 * The id of each sealed key the order was given, from its own stream (`OrderLicenceKeysAssigned` carries both),
 * so a showing names keys exactly as the inventory does, without waiting on any read model.
 */
export async function orderKeyIds(eventStore: EventStore, orderId: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for await (const recorded of eventStore.readStream(orderStream(orderId))) {
    if (recorded.type !== 'OrderLicenceKeysAssigned') continue;
    const event = parseOrderEvent(recorded.type, recorded.data);
    if (event?.type !== 'OrderLicenceKeysAssigned') continue;
    for (const { keyId, key } of event.data.keys) ids.set(key, keyId);
  }
  return ids;
}

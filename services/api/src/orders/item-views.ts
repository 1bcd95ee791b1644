import type { OrderItemView, OrderView } from '@licensestore/domain';
import type { Request } from 'express';
import { masked, type RevealKey } from '../license-keys/reveal.js';
import type { KeyAccess } from './access.js';
import { CustodyNotRecordedError, type KeyCustody, type Showing } from './custody.js';
import type { StoredOrderItem } from './queries.js';

/**
 * The stored lines with their keys as the caller may see them: opened, masked, or withheld (both key fields
 * absent, `keysWithheld` on lines that have keys). A key that does not open is left out (and logged by `reveal`).
 * Masked lines name their keys' ids (`licenseKeyIds`, for the back office's key history); `opened` lists the ids
 * of the keys shown in clear, as the order's row holds them.
 */
export function orderItemViews(
  orderId: string,
  items: StoredOrderItem[],
  access: KeyAccess['keys'],
  reveal: RevealKey,
): { items: OrderItemView[]; opened: Array<string | undefined> } {
  /** The id of each key shown in clear; undefined for one the row has no id for. */
  const opened: Array<string | undefined> = [];
  const hide = masked(reveal);
  const views = items.map(({ sealedKeys, keyIds, keyStatuses, refundedUnits, ...line }): OrderItemView => {
    const item: OrderItemView = refundedUnits > 0 ? { ...line, refundedUnits } : line;
    if (access === 'none') return sealedKeys.length > 0 ? { ...item, keysWithheld: true } : item;
    // A key no longer the customer's is never shown in clear, as if it were still valid.
    const shown = sealedKeys.flatMap((sealed, index) => {
      const status = keyStatuses[index] ?? 'valid';
      const inClear = access === 'clear' && status === 'valid';
      const key = (inClear ? reveal : hide)(sealed, { orderId, itemId: item.id });
      if (key !== null && inClear) opened.push(keyIds[index]);
      return key === null ? [] : [{ key, status, id: keyIds[index] }];
    });
    const valid = shown.find(({ status }) => status === 'valid');
    const changed = shown.some(({ status }) => status !== 'valid');
    const view: OrderItemView = {
      ...item,
      licenseKey: valid?.key ?? null,
      licenseKeys: shown.map(({ key }) => key),
      ...(changed ? { keyStatuses: shown.map(({ status }) => status) } : {}),
    };
    return access === 'masked' ? { ...view, licenseKeyIds: shown.map(({ id }) => id ?? '') } : view;
  });
  return { items: views, opened };
}

export interface ItemShowingDeps {
  custody: KeyCustody;
  reveal: RevealKey;
}

/**
 * The keys of an order held by the risk rules (or rejected by its review) are set aside, not the buyer's yet: outside
 * the back office its lines show as having none, so no door shows them in clear nor hints that they exist.
 */
const setAsideForReview = (order: Pick<OrderView, 'reviewStatus'>, access: KeyAccess) =>
  access.keys !== 'masked' && (order.reviewStatus === 'held' || order.reviewStatus === 'rejected');

/**
 * An order's lines for this caller, and for keys in clear the showing, recorded before the answer leaves: no key
 * goes out in clear without its custody record (`CustodyNotRecordedError`, 503, when it cannot be written). A page
 * view that already recorded exactly this showing (`pageView`, a token from `KeyCustody.pageViewToken`) is not
 * recorded again. `showing` is null when nothing was shown in clear.
 */
export async function showOrderItems(
  { custody, reveal }: ItemShowingDeps,
  req: Request,
  order: Pick<OrderView, 'id' | 'reviewStatus'>,
  stored: StoredOrderItem[],
  access: KeyAccess,
  pageView?: string,
): Promise<{ items: OrderItemView[]; showing: Showing | null }> {
  const orderId = order.id;
  const lines = setAsideForReview(order, access)
    ? stored.map((line) => ({ ...line, sealedKeys: [], keyIds: [], keyStatuses: [] }))
    : stored;
  const { items, opened } = orderItemViews(orderId, lines, access.keys, reveal);
  if (access.keys !== 'clear' || opened.length === 0) return { items, showing: null };
  // The row holds each key beside its id, both from the event that assigned it; a key without one cannot be recorded.
  if (opened.some((id) => id === undefined)) throw new CustodyNotRecordedError();
  const showing: Showing = {
    orderId,
    keyIds: [...new Set(opened as string[])],
    channel: access.channel,
    viewer: access.viewer,
  };
  if (!custody.recordedInPageView(req, showing, pageView)) await custody.record(req, showing);
  return { items, showing };
}

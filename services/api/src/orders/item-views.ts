import type { OrderItemView } from '@licensestore/shared';
import { masked, type RevealKey } from '../licence-keys/reveal.js';
import type { KeyAccess } from './access.js';
import type { StoredOrderItem } from './queries.js';

/**
 * The stored lines with their keys as the caller may see them: opened, masked, or withheld (both key fields
 * absent, `keysWithheld` on lines that have keys). A key that does not open is left out (and logged by `reveal`).
 */
export function orderItemViews(
  orderId: string,
  items: StoredOrderItem[],
  access: KeyAccess,
  reveal: RevealKey,
): OrderItemView[] {
  const open = access === 'masked' ? masked(reveal) : reveal;
  const hide = masked(reveal);
  return items.map(({ sealedKeys, keyStatuses, refundedUnits, ...line }) => {
    const item: OrderItemView = refundedUnits > 0 ? { ...line, refundedUnits } : line;
    if (access === 'none') return sealedKeys.length > 0 ? { ...item, keysWithheld: true } : item;
    // A key no longer the customer's is never shown in clear, as if it were still valid.
    const keys = sealedKeys.flatMap((sealed, index) => {
      const status = keyStatuses[index] ?? 'valid';
      const key = (status === 'valid' ? open : hide)(sealed, { orderId, itemId: item.id });
      return key === null ? [] : [{ key, status }];
    });
    const licenseKeys = keys.map(({ key }) => key);
    const valid = keys.find(({ status }) => status === 'valid');
    const changed = keys.some(({ status }) => status !== 'valid');
    return {
      ...item,
      licenseKey: valid?.key ?? null,
      licenseKeys,
      ...(changed ? { keyStatuses: keys.map(({ status }) => status) } : {}),
    };
  });
}

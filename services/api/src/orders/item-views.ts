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
  return items.map(({ sealedKeys, ...item }) => {
    if (access === 'none') return sealedKeys.length > 0 ? { ...item, keysWithheld: true } : item;
    const licenseKeys = sealedKeys.flatMap((sealed) => open(sealed, { orderId, itemId: item.id }) ?? []);
    return { ...item, licenseKey: licenseKeys[0] ?? null, licenseKeys };
  });
}

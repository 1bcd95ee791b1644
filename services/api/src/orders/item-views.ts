import type { OrderItemView } from '@licensestore/shared';
import type { RevealKey } from '../licence-keys/reveal.js';
import type { StoredOrderItem } from './queries.js';

/** The stored lines with their keys opened; a key that does not open is left out (and logged by `reveal`). */
export function orderItemViews(
  orderId: string,
  items: StoredOrderItem[],
  reveal: RevealKey,
): OrderItemView[] {
  return items.map(({ sealedKeys, ...item }) => {
    const licenseKeys = sealedKeys.flatMap((sealed) => reveal(sealed, { orderId, itemId: item.id }) ?? []);
    return { ...item, licenseKey: licenseKeys[0] ?? null, licenseKeys };
  });
}

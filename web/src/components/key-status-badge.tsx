import type { OrderKeyStatus } from '@licensestore/domain';
import { Badge } from '@/components/ui/badge';

/** What a key no longer valid is called: to the customer a key on its way back is simply refunded. */
const LABELS: Record<Exclude<OrderKeyStatus, 'valid'>, { customer: string; admin: string }> = {
  revoked: { customer: 'Revoked', admin: 'Revoked' },
  returned: { customer: 'Refunded', admin: 'Returned to stock' },
  refunded: { customer: 'Refunded', admin: 'Refunded' },
};

/** The status of a key an order line got, when it is no longer valid; nothing for a valid key. */
export function KeyStatusBadge({
  status,
  audience,
}: {
  status: OrderKeyStatus | undefined;
  audience: 'customer' | 'admin';
}) {
  if (status === undefined || status === 'valid') return null;
  return (
    <Badge variant={status === 'revoked' ? 'sale' : 'outline'} className="shrink-0">
      {LABELS[status][audience]}
    </Badge>
  );
}

import type { OrderView } from '@licensestore/shared';
import { orderNumber } from '@licensestore/shared/orders/order-number';
import { Select } from '@/components/ui/select';
import { ADMIN_STATUSES, type AdminStatus, useChangeOrderStatus } from '../api/change-order-status';

const OPTIONS = ADMIN_STATUSES.map((status) => ({
  value: status,
  label: status.charAt(0).toUpperCase() + status.slice(1),
}));

const isAdminStatus = (status: string): status is AdminStatus =>
  (ADMIN_STATUSES as readonly string[]).includes(status);

/**
 * The order's status as a drop-down of the three an admin may set. An order in another status (processing,
 * refunded) shows it as the placeholder, so the list never claims a status the order does not have.
 */
export function OrderStatusSelect({ order, className }: { order: OrderView; className?: string }) {
  const change = useChangeOrderStatus();
  const status = order.status.toLowerCase();
  return (
    <Select
      aria-label={`Status of order ${orderNumber(order.id)}`}
      className={className}
      value={isAdminStatus(status) ? status : undefined}
      placeholder={status.charAt(0).toUpperCase() + status.slice(1)}
      options={OPTIONS}
      disabled={change.isPending}
      onValueChange={(value) => {
        if (isAdminStatus(value) && value !== status) change.mutate({ orderId: order.id, status: value });
      }}
    />
  );
}

import { ADMIN_STATUSES, type AdminStatus } from '@licensestore/contract/orders';
import type { OrderView } from '@licensestore/domain';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Select } from '@/components/ui/select';
import { useChangeOrderStatus } from '../api/change-order-status';
import { statusChangeQuestion } from '../utils/status-change';

const OPTIONS = ADMIN_STATUSES.map((status) => ({
  value: status,
  label: status.charAt(0).toUpperCase() + status.slice(1),
}));

const isAdminStatus = (status: string): status is AdminStatus =>
  (ADMIN_STATUSES as readonly string[]).includes(status);

/**
 * The order's status as a drop-down of the three an admin may set; cancelling an order and reopening a cancelled
 * one are asked first, with what they do. An order in another status (processing, refunded) shows it as the
 * placeholder, so the list never claims a status the order does not have. With the `etag` of the order shown, a
 * change is refused if the order changed since (the order page has it; the list does not).
 */
export function OrderStatusSelect({
  order,
  etag = null,
  className,
}: {
  order: OrderView;
  etag?: string | null;
  className?: string;
}) {
  const change = useChangeOrderStatus();
  // The status the admin is asked about, while the dialog is open.
  const [asking, setAsking] = useState<AdminStatus | null>(null);
  const status = order.status.toLowerCase();
  const number = orderNumber(order.id);
  const question = asking && statusChangeQuestion(status, asking, number);
  const confirm = () => {
    if (!asking) return;
    change.mutate({ orderId: order.id, status: asking, etag }, { onSettled: () => setAsking(null) });
  };
  return (
    <>
      <Select
        aria-label={`Status of order ${number}`}
        className={className}
        value={isAdminStatus(status) ? status : undefined}
        placeholder={status.charAt(0).toUpperCase() + status.slice(1)}
        options={OPTIONS}
        disabled={change.isPending}
        onValueChange={(value) => {
          if (!isAdminStatus(value) || value === status) return;
          if (!statusChangeQuestion(status, value, number)) {
            change.mutate({ orderId: order.id, status: value, etag });
            return;
          }
          // Asked once the drop-down has closed: the Enter that chose the option would otherwise also press
          // the dialog's first button and close it unseen.
          setTimeout(() => setAsking(value));
        }}
      />
      {question && (
        <ConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open) setAsking(null);
          }}
          {...question}
          busy={change.isPending}
          onConfirm={confirm}
        />
      )}
    </>
  );
}

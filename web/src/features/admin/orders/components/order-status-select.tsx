import type { OrderView } from '@licensestore/shared';
import { orderNumber } from '@licensestore/shared/orders/order-number';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Select } from '@/components/ui/select';
import { ADMIN_STATUSES, type AdminStatus, useChangeOrderStatus } from '../api/change-order-status';

const OPTIONS = ADMIN_STATUSES.map((status) => ({
  value: status,
  label: status.charAt(0).toUpperCase() + status.slice(1),
}));

const isAdminStatus = (status: string): status is AdminStatus =>
  (ADMIN_STATUSES as readonly string[]).includes(status);

/** Cancelling releases the order's keys for good, so it is asked for with its consequence; the others are not. */
const CANCELLED: AdminStatus = 'cancelled';
const CANCEL_CONSEQUENCE =
  'Its license keys are released: a key already delivered is revoked and can never be used again, any other ' +
  'returns to stock. No money goes back to the buyer (use Refund for that), and a cancelled order cannot be reopened.';

/**
 * The order's status as a drop-down of the three an admin may set. An order in another status (processing,
 * refunded) shows it as the placeholder, so the list never claims a status the order does not have. With the `etag`
 * of the order shown, a change is refused if the order changed since (the order page has it; the list does not).
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
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const status = order.status.toLowerCase();
  const number = orderNumber(order.id);
  const cancel = () =>
    change.mutate(
      { orderId: order.id, status: CANCELLED, etag },
      { onSettled: () => setConfirmingCancel(false) },
    );
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
          // Asked once the drop-down has closed: the Enter that chose the option would otherwise also press
          // the dialog's first button and close it unseen.
          if (value === CANCELLED) setTimeout(() => setConfirmingCancel(true));
          else change.mutate({ orderId: order.id, status: value, etag });
        }}
      />
      <ConfirmDialog
        open={confirmingCancel}
        onOpenChange={setConfirmingCancel}
        title={`Cancel order ${number}?`}
        description={CANCEL_CONSEQUENCE}
        confirmLabel="Cancel order"
        cancelLabel="Keep order"
        busyLabel="Cancelling..."
        busy={change.isPending}
        onConfirm={cancel}
      />
    </>
  );
}

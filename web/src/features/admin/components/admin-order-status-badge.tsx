import { isPaymentDeclined, PAYMENT_DECLINED } from '@/components/order-status-label';
import { cn } from '@/lib/cn';

/**
 * Admin badge styling: completed default, pending secondary, cancelled (payment declined too) destructive, any
 * other status outline. Compared case-insensitively, like the customer-side badge.
 */
const STYLES: Record<string, string> = {
  completed: 'bg-primary text-primary-foreground',
  pending: 'bg-muted text-foreground',
  // The dark theme's destructive red is too light under small white text (axe: 3.6:1); the sale red is the same
  // hue made dark enough for it.
  cancelled: 'bg-destructive-solid text-destructive-foreground',
};
const OTHER = 'border border-border text-foreground';

/** The order's status; given where its payment stands, a cancelled order PayPal declined reads "Payment declined". */
export function AdminOrderStatusBadge({
  status,
  paymentStatus,
  className,
}: {
  status: string;
  paymentStatus?: string;
  className?: string;
}) {
  const declined = isPaymentDeclined(status, paymentStatus);
  return (
    <span
      className={cn(
        'inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold',
        !declined && 'capitalize',
        STYLES[status.toLowerCase()] ?? OTHER,
        className,
      )}
    >
      {declined ? PAYMENT_DECLINED : status}
    </span>
  );
}

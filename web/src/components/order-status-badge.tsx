import { isPaymentDeclined, PAYMENT_DECLINED } from './order-status-label';

/** Customer-side badge colours: completed green, pending yellow, processing blue, other grey. */
const COLOURS: Record<string, string> = {
  completed: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200',
  pending: 'bg-yellow-100 text-yellow-800 dark:bg-yellow-900/50 dark:text-yellow-200',
  processing: 'bg-blue-100 text-blue-800 dark:bg-blue-900/50 dark:text-blue-200',
};
const OTHER = 'bg-gray-100 text-gray-800 dark:bg-gray-800 dark:text-gray-200';

/** The order's status; given where its payment stands, a cancelled order PayPal declined reads "Payment declined". */
export function OrderStatusBadge({ status, paymentStatus }: { status: string; paymentStatus?: string }) {
  const colour = COLOURS[status.toLowerCase()] ?? OTHER;
  const declined = isPaymentDeclined(status, paymentStatus);
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${declined ? '' : 'capitalize'} ${colour}`}
    >
      {declined ? PAYMENT_DECLINED : status}
    </span>
  );
}

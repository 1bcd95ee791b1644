import type { OrderView } from '@licensestore/shared';
import { FileDown } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { cn } from '@/lib/cn';

/** Where an order's receipt PDF downloads from (the order's access cookie covers the path). */
export const receiptUrl = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/receipt.pdf`;

/**
 * The order's receipt PDF as a download button, once the order is paid and numbered; before that a line saying when
 * it comes (nothing for a cancelled order, which never gets one).
 */
export function ReceiptLink({
  order,
  className,
}: {
  order: Pick<OrderView, 'id' | 'status' | 'receiptNumber'>;
  className?: string;
}) {
  if (!order.receiptNumber) {
    if (order.status === 'cancelled') return null;
    return (
      <p className={cn('text-sm text-muted-foreground', className)}>
        Your receipt will be available here once the payment is complete.
      </p>
    );
  }
  return (
    <a
      href={receiptUrl(order.id)}
      download={`receipt-${order.receiptNumber}.pdf`}
      className={buttonClasses('outline', className)}
    >
      <FileDown aria-hidden="true" className="size-4" />
      Download receipt <span className="font-mono">{order.receiptNumber}</span>
    </a>
  );
}

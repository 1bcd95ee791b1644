import type { OrderView } from '@licensestore/domain';
import { FileDown, LockKeyhole } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { SIGN_IN_URL } from '@/config/sign-in';
import { cn } from '@/lib/cn';

/** Where an order's receipt PDF downloads from (the order's access cookie covers the path). */
export const receiptUrl = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/receipt.pdf`;

/**
 * The order's receipt PDF as a download button, once the order is paid and numbered; before that a line saying when
 * it comes (nothing for a cancelled order, which never gets one). A visitor without access to the order (no access
 * cookie, not signed in with its address: `hasAccess` false) could not download it, so is told how to get access.
 */
export function ReceiptLink({
  order,
  className,
}: {
  order: Pick<OrderView, 'id' | 'status' | 'receiptNumber'> & { hasAccess?: boolean };
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
  if (order.hasAccess === false) {
    return (
      <p
        className={cn('flex items-start gap-2 text-sm text-muted-foreground', className)}
        data-testid="receipt-access"
      >
        <LockKeyhole aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
        <span>
          Receipt <span className="whitespace-nowrap font-mono">{order.receiptNumber}</span> opens from the
          link in your delivery email, or here after you{' '}
          <a href={SIGN_IN_URL} className="font-medium text-primary underline underline-offset-4">
            sign in with the email address of this order
          </a>
          .
        </span>
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

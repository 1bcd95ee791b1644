import { Ban, CheckCircle2, Clock, RotateCcw, XCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { OrderStage } from '../utils/order-stage';

const VERDICTS = {
  paid: {
    Icon: CheckCircle2,
    tone: 'text-success',
    title: 'Order Confirmed!',
    line: (name: string) => `Thank you for your purchase, ${name}`,
  },
  'partly-refunded': {
    Icon: RotateCcw,
    tone: 'text-warning',
    title: 'Order partly refunded',
    line: (name: string) =>
      `${name}, part of this order was refunded: the refunded items' keys no longer work, the others still do.`,
  },
  refunded: {
    Icon: RotateCcw,
    tone: 'text-muted-foreground',
    title: 'Order refunded',
    line: (name: string) => `${name}, this order was refunded in full: its license keys no longer work.`,
  },
  cancelled: {
    Icon: Ban,
    tone: 'text-muted-foreground',
    title: 'Order cancelled',
    line: (name: string) => `${name}, this order was cancelled: any license keys sent for it no longer work.`,
  },
  'under-review': {
    Icon: Clock,
    tone: 'text-warning',
    title: 'Payment under review',
    line: (name: string) => `Thank you, ${name}. PayPal is reviewing your payment.`,
  },
  'being-checked': {
    Icon: Clock,
    tone: 'text-warning',
    title: 'Your order is being checked',
    line: (name: string) =>
      `Thank you, ${name}. Your payment was received; we check some orders before sending their license keys.`,
  },
  'not-approved': {
    Icon: XCircle,
    tone: 'text-destructive',
    title: 'Order not approved',
    line: (name: string) =>
      `Sorry, ${name}. This order was not approved: your payment is refunded in full and no license key is sent.`,
  },
  declined: {
    Icon: XCircle,
    tone: 'text-destructive',
    title: 'Payment declined',
    line: (name: string) => `Sorry, ${name}. PayPal declined this payment.`,
  },
} as const satisfies Record<OrderStage, unknown>;

/**
 * The page's verdict on the order. Its heading takes focus when the page opens, so keyboard and screen-reader
 * users continue from the verdict after paying, not from the top of the page. It is a live region: when PayPal's
 * review ends, or a refund lands, while the page is open, the new heading is read out as it appears.
 */
export function ConfirmationHeader({ stage, customerName }: { stage: OrderStage; customerName: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const { Icon, tone, title, line } = VERDICTS[stage];
  return (
    <header aria-live="polite" className="flex flex-col items-center gap-2 text-center">
      <Icon aria-hidden="true" data-stage={stage} className={`size-16 ${tone}`} />
      <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold tracking-tight outline-none">
        {title}
      </h1>
      <p className="text-lg text-muted-foreground">{line(customerName)}</p>
    </header>
  );
}

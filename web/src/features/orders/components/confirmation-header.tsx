import { CheckCircle2, Clock, XCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { PaymentStage } from '../utils/payment-stage';

const VERDICTS = {
  paid: {
    Icon: CheckCircle2,
    tone: 'text-success',
    title: 'Order Confirmed!',
    line: (name: string) => `Thank you for your purchase, ${name}`,
  },
  'under-review': {
    Icon: Clock,
    tone: 'text-warning',
    title: 'Payment under review',
    line: (name: string) => `Thank you, ${name}. PayPal is reviewing your payment.`,
  },
  declined: {
    Icon: XCircle,
    tone: 'text-destructive',
    title: 'Payment declined',
    line: (name: string) => `Sorry, ${name}. PayPal declined this payment.`,
  },
} as const;

/**
 * The page's verdict on the payment. Its heading takes focus when the page opens, so keyboard and screen-reader
 * users continue from the verdict after paying, not from the top of the page. It is a live region: when PayPal's
 * review ends while the page is open, the new heading is read out as it appears.
 */
export function ConfirmationHeader({ stage, customerName }: { stage: PaymentStage; customerName: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const { Icon, tone, title, line } = VERDICTS[stage];
  return (
    <header aria-live="polite" className="flex flex-col items-center gap-2 text-center">
      <Icon aria-hidden="true" className={`size-16 ${tone}`} />
      <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold tracking-tight outline-none">
        {title}
      </h1>
      <p className="text-lg text-muted-foreground">{line(customerName)}</p>
    </header>
  );
}

import { CheckCircle2, Clock, XCircle } from 'lucide-react';
import type { PaymentStage } from '../utils/payment-stage';

/**
 * The page's verdict on the payment. It is a live region: when PayPal's review ends while the page is open, the
 * new heading is read out as it appears.
 */
export function ConfirmationHeader({ stage, customerName }: { stage: PaymentStage; customerName: string }) {
  return (
    <header aria-live="polite" className="flex flex-col items-center gap-2 text-center">
      {stage === 'paid' && (
        <>
          <CheckCircle2 aria-hidden="true" className="size-16 text-success" />
          <h1 className="text-3xl font-bold tracking-tight">Order Confirmed!</h1>
          <p className="text-lg text-muted-foreground">Thank you for your purchase, {customerName}</p>
        </>
      )}
      {stage === 'under-review' && (
        <>
          <Clock aria-hidden="true" className="size-16 text-warning" />
          <h1 className="text-3xl font-bold tracking-tight">Payment under review</h1>
          <p className="text-lg text-muted-foreground">
            Thank you, {customerName}. PayPal is reviewing your payment.
          </p>
        </>
      )}
      {stage === 'declined' && (
        <>
          <XCircle aria-hidden="true" className="size-16 text-destructive" />
          <h1 className="text-3xl font-bold tracking-tight">Payment declined</h1>
          <p className="text-lg text-muted-foreground">
            Sorry, {customerName}. PayPal declined this payment.
          </p>
        </>
      )}
    </header>
  );
}

import { Loader2 } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import type { PaymentHandlers, PaymentPhase } from '../hooks/use-payment-flow';
import type { PaymentProblem } from '../utils/payment-problems';
import { PaymentWidget } from './payment-widget';

interface PaymentSectionProps {
  /** The form is complete enough to pay: a name of 2 characters or more, a valid e-mail. */
  offered: boolean;
  phase: PaymentPhase;
  /** Why the last attempt failed, in the buyer's words. */
  failure: PaymentProblem | null;
  handlers: PaymentHandlers;
  amount: string;
}

/** Payment Method: a notice until the customer form is filled in, then the widget. */
export function PaymentSection({ offered, phase, failure, handlers, amount }: PaymentSectionProps) {
  const busy = phase !== 'idle';
  return (
    <Card aria-labelledby="payment-method">
      <CardHeader>
        <CardTitle id="payment-method">Payment Method</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {offered ? (
          <div className="grid gap-3" aria-busy={busy}>
            {/* Above the widget, never over it: PayPal's mark and buttons stay in sight while a payment runs. */}
            {busy && (
              <p role="status" className="flex items-center justify-center gap-2 font-medium">
                <Loader2 aria-hidden="true" className="size-5 animate-spin text-primary" />
                Processing payment...
              </p>
            )}
            {/* inert: no second payment can be started from it while one runs. */}
            <div inert={busy} className={busy ? 'opacity-60' : undefined}>
              <PaymentWidget
                handlers={handlers}
                amount={amount}
                disabled={busy}
                problem={busy ? null : failure}
              />
            </div>
          </div>
        ) : (
          <>
            <p className="rounded-md border border-yellow-300 bg-yellow-50 p-4 text-sm text-yellow-900 dark:border-yellow-700/60 dark:bg-yellow-950/40 dark:text-yellow-100">
              Please fill in your name and email address above to proceed with payment.
            </p>
            <div className="flex min-h-32 items-center justify-center rounded-md border-2 border-dashed border-border text-sm text-muted-foreground">
              PayPal button will appear here
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

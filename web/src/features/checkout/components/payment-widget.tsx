import { CreditCard, Lock, Wallet } from 'lucide-react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import type { PaymentHandlers } from '../hooks/use-payment-flow';
import { usePaypal } from '../hooks/use-paypal';
import type { PaymentProblem } from '../utils/payment-problems';
import { CardPaymentForm } from './card-payment-form';
import { PaymentProblemNotice } from './payment-problem-notice';
import { PaypalButtons } from './paypal-buttons';

interface PaymentWidgetProps {
  handlers: PaymentHandlers;
  /** "59.97" */
  amount: string;
  /** No switching methods while a payment is under way. */
  disabled: boolean;
  /** Why the last attempt failed: shown under the button that pays. */
  problem: PaymentProblem | null;
}

/** Payment widget: PayPal's button or PayPal's card fields, in two tabs. */
export function PaymentWidget({ handlers, amount, disabled, problem }: PaymentWidgetProps) {
  const sdk = usePaypal();

  const body = (
    render: (ready: Extract<typeof sdk, { status: 'ready' }>) => React.ReactNode,
    loading: string,
  ) => {
    if (sdk.status === 'failed') {
      return (
        <p role="alert" className="text-sm text-destructive">
          {sdk.message}
        </p>
      );
    }
    if (sdk.status === 'loading') {
      return (
        <p role="status" className="flex min-h-20 items-center justify-center text-sm text-muted-foreground">
          {loading}
        </p>
      );
    }
    return render(sdk);
  };

  return (
    <div className="grid gap-4">
      <Tabs defaultValue="paypal">
        <TabsList aria-label="Payment method">
          <TabsTrigger value="paypal" disabled={disabled}>
            <Wallet aria-hidden="true" className="size-4" />
            PayPal
          </TabsTrigger>
          <TabsTrigger value="card" disabled={disabled}>
            <CreditCard aria-hidden="true" className="size-4" />
            Debit or Credit Card
          </TabsTrigger>
        </TabsList>
        <TabsContent value="paypal" className="grid gap-3">
          <p className="text-sm text-muted-foreground">
            Click the button below to pay securely with your PayPal account.
          </p>
          {body(
            ({ loaded }) => (
              <PaypalButtons paypal={loaded.paypal} handlers={handlers} />
            ),
            'Loading payment options...',
          )}
        </TabsContent>
        <TabsContent value="card">
          {body(
            ({ loaded }) => (
              <CardPaymentForm
                paypal={loaded.paypal}
                handlers={handlers}
                amount={amount}
                currency={loaded.config.currency}
              />
            ),
            'Loading card payment form...',
          )}
        </TabsContent>
      </Tabs>
      {problem && <PaymentProblemNotice problem={problem} />}
      <div className="grid gap-1 border-t border-border pt-4 text-center text-xs text-muted-foreground">
        <p className="flex items-center justify-center gap-1.5">
          <Lock aria-hidden="true" className="size-3.5" />
          Secure payment powered by PayPal
        </p>
        {sdk.status === 'ready' && sdk.loaded.config.simulated && (
          <p>Test mode: payments are simulated and no money is charged.</p>
        )}
      </div>
    </div>
  );
}

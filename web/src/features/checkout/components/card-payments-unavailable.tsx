import { CreditCard } from 'lucide-react';

export function CardPaymentsUnavailable() {
  return (
    <div className="flex flex-col items-center gap-2 rounded-md border border-border bg-muted/50 px-4 py-8 text-center">
      <CreditCard aria-hidden="true" className="size-8 text-muted-foreground" />
      <h3 className="font-semibold">Card Payments Not Available</h3>
      <p className="max-w-sm text-sm text-muted-foreground">
        Card payments require advanced card payments to be enabled on the PayPal account. Please use the
        PayPal option instead.
      </p>
    </div>
  );
}

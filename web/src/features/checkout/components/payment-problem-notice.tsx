import { CircleAlert } from 'lucide-react';
import type { PaymentProblem } from '../utils/payment-problems';

/** Why the last attempt failed and what to do, right under the button that pays; PayPal's code small, for support. */
export function PaymentProblemNotice({ problem }: { problem: PaymentProblem }) {
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
      <div className="grid gap-1">
        <p className="font-medium text-foreground">{problem.message}</p>
        {problem.code && <p className="font-mono text-xs text-muted-foreground">Code: {problem.code}</p>}
      </div>
    </div>
  );
}

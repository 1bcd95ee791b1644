import { Info } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import type { OrderStage } from '../utils/order-stage';

/**
 * What happens next while PayPal reviews the payment or the store checks the order, or after PayPal declined it;
 * nothing once it is paid and served.
 */
export function PaymentReviewNotice({ stage, customerEmail }: { stage: OrderStage; customerEmail: string }) {
  if (stage === 'being-checked') return <OrderCheckNotice customerEmail={customerEmail} />;
  if (stage !== 'under-review' && stage !== 'declined') return null;
  return (
    <WhatHappensNext>
      {stage === 'under-review' ? (
        <>
          <p>
            PayPal checks some payments before completing them, usually within minutes and at most within 24
            hours. As soon as it completes yours, your license keys are emailed to{' '}
            <strong className="break-words">{customerEmail}</strong> and appear on this page.
          </p>
          <p className="text-muted-foreground">
            There is nothing you need to do, and you can close this page. If PayPal declines the payment, no
            money is taken.
          </p>
        </>
      ) : (
        <>
          <p>No money was taken and no license keys will be sent for this order.</p>
          <p className="text-muted-foreground">
            You can place the order again and pay with another card or PayPal account.
          </p>
          <Link href="/products" className={buttonClasses('primary', 'mt-2 justify-self-start')}>
            Browse Products
          </Link>
        </>
      )}
    </WhatHappensNext>
  );
}

/** A paid order the store's risk rules hold: what the check is, and when the keys come. */
function OrderCheckNotice({ customerEmail }: { customerEmail: string }) {
  return (
    <WhatHappensNext>
      <p>
        Your payment was received and your license keys are set aside for you. We are checking this order
        before sending them, usually within a few hours. As soon as the check is done, your license keys are
        emailed to <strong className="break-words">{customerEmail}</strong> and appear on this page.
      </p>
      <p className="text-muted-foreground">
        There is nothing you need to do, and you can close this page. If we cannot approve the order, your
        payment is refunded in full.
      </p>
    </WhatHappensNext>
  );
}

/** The box under the verdict that says what the buyer may expect next. */
function WhatHappensNext({ children }: { children: React.ReactNode }) {
  return (
    <section
      aria-labelledby="what-next"
      className="grid gap-2 rounded-lg border border-border bg-muted/50 p-4 text-sm sm:p-6"
    >
      <h2 id="what-next" className="flex items-center gap-2 text-base font-semibold">
        <Info aria-hidden="true" className="size-5 shrink-0 text-primary" />
        What happens next
      </h2>
      {children}
    </section>
  );
}

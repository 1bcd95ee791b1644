import type { OrderWithItemsView } from '@licensestore/domain';
import { ExternalLink, Mail } from 'lucide-react';
import { Link } from 'wouter';
import { Button, buttonClasses } from '@/components/ui/button';
import { errorSentence } from '@/lib/api';
import { useResendKeys } from '../api/resend-keys';

/** Every unit has its key and the order stands: the delivery e-mail exists and may be sent again. */
const mayResend = (order: OrderWithItemsView) =>
  order.status !== 'cancelled' &&
  order.status !== 'refunded' &&
  order.items.length > 0 &&
  order.items.every((item) => (item.licenseKeys?.length ?? 0) >= item.quantity);

/** What a customer does with one of their orders: open its page, have its keys emailed again. */
export function OrderActions({ order }: { order: OrderWithItemsView }) {
  const resend = useResendKeys(order.id);
  return (
    <div className="grid gap-2 border-t border-border p-4 sm:px-6">
      <div className="flex flex-wrap items-center gap-2">
        <Link href={`/order-confirmation/${order.id}`} className={buttonClasses('outline', 'h-9')}>
          <ExternalLink aria-hidden="true" className="size-4" />
          View order
        </Link>
        {mayResend(order) && (
          <Button
            variant="outline"
            className="h-9"
            disabled={resend.isPending}
            onClick={() => resend.mutate()}
          >
            <Mail aria-hidden="true" className="size-4" />
            {resend.isPending ? 'Sending...' : 'Email my keys again'}
          </Button>
        )}
      </div>
      <p aria-live="polite" className="text-sm">
        {resend.isSuccess && (
          <span className="text-muted-foreground">
            Your keys are on their way to{' '}
            <strong className="break-words text-foreground">{order.customerEmail}</strong>. It can take a few
            minutes; check your spam folder too.
          </span>
        )}
        {resend.isError && <span className="text-destructive">{errorSentence(resend.error)}</span>}
      </p>
    </div>
  );
}

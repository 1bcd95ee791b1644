import { orderNumber } from '@licensestore/domain/orders/order-number';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { OrderTimeline } from '@/features/admin/orders/components/order-timeline';
import { OrderAsOfCard } from './order-as-of-card';

/** One order for auditors: its state as of any moment beside its whole history (correlated events included). */
export function OrderHistoryScreen({ orderId }: { orderId: string }) {
  return (
    <>
      <Link href="/admin/audit/events" className={buttonClasses('ghost', 'w-fit -ml-3')}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to the event log
      </Link>
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Order {orderNumber(orderId)}: history</h1>
        <p className="font-mono text-sm break-all text-muted-foreground">
          {orderId} ·{' '}
          <Link
            href={`/admin/orders/${orderId}`}
            className="rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
          >
            Order details
          </Link>
        </p>
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <OrderAsOfCard orderId={orderId} />
        <OrderTimeline orderId={orderId} />
      </div>
    </>
  );
}

import { orderNumber } from '@licensestore/domain/orders/order-number';
import { ArrowLeft, History } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { isNotFound } from '@/lib/api';
import { useOrder } from '../api/get-orders';
import { EvidencePackButton } from './evidence-pack-button';
import { OrderItemsCard } from './order-items-card';
import { OrderRefundsCard } from './order-refunds-card';
import { OrderSummaryCard } from './order-summary-card';
import { OrderTimeline } from './order-timeline';

function BackToOrders() {
  return (
    <Link href="/admin/orders" className={buttonClasses('ghost', 'w-fit -ml-3')}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to orders
    </Link>
  );
}

/** One order for admins: its details, lines and keys, and its event history. */
export function OrderDetail({ orderId }: { orderId: string }) {
  const { data, error, isPending, refetch, isRefetching } = useOrder(orderId);
  const order = data?.value;

  if (isNotFound(error)) {
    return (
      <>
        <BackToOrders />
        <div className="rounded-lg border border-border bg-card p-8 text-center">
          <h1 className="text-2xl font-bold">Order Not Found</h1>
          <p className="mt-2 text-muted-foreground">The order you're looking for doesn't exist.</p>
        </div>
      </>
    );
  }
  return (
    <>
      <BackToOrders />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight">Order {orderNumber(orderId)}</h1>
          <p className="font-mono text-sm break-all text-muted-foreground">{orderId}</p>
        </div>
        {!error && (
          <div className="flex flex-wrap gap-3">
            <Link href={`/admin/audit/orders/${orderId}`} className={buttonClasses('outline', 'w-fit')}>
              <History aria-hidden="true" className="size-4" />
              Audit history
            </Link>
            <EvidencePackButton orderId={orderId} />
          </div>
        )}
      </div>
      {error ? (
        <LoadError
          title="The order could not be loaded"
          error={error}
          onRetry={() => refetch()}
          retrying={isRefetching}
        />
      ) : (
        // Columns as wide as the screen, never as wide as their longest text: a long e-mail wraps inside its card.
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <div className="grid grid-cols-1 gap-6">
            {isPending || !data ? (
              <Skeleton className="h-64" />
            ) : (
              <OrderSummaryCard order={data.value} etag={data.etag} />
            )}
            <OrderItemsCard orderId={orderId} />
            {order && <OrderRefundsCard order={order} />}
          </div>
          <OrderTimeline orderId={orderId} />
        </div>
      )}
    </>
  );
}

import type { DashboardRecentOrderView } from '@licensestore/domain';
import { useId } from 'react';
import { Link } from 'wouter';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { AdminOrderStatusBadge } from '@/features/admin/components/admin-order-status-badge';
import { REVIEW_LABELS } from '@/features/admin/orders/utils/review-labels';
import { formatPrice } from '@/lib/format';

const RECENT_ORDERS = 5;

/** The newest orders (the first 5), each opening its order page, or 'No orders yet'. */
export function RecentOrders({ orders }: { orders: DashboardRecentOrderView[] }) {
  const recent = orders.slice(0, RECENT_ORDERS);
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId} className="lg:col-span-2">
      <CardHeader>
        <CardTitle id={titleId}>Recent Orders</CardTitle>
      </CardHeader>
      <CardContent>
        {recent.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No orders yet</p>
        ) : (
          <ul className="divide-y divide-border">
            {recent.map((order) => (
              <li key={order.id}>
                <Link
                  href={`/admin/orders/${order.id}`}
                  className="-mx-2 flex items-center justify-between gap-4 rounded-md px-2 py-3 hover:bg-muted/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
                >
                  <div className="min-w-0">
                    <p className="truncate text-sm font-medium">{order.customerName}</p>
                    <p className="truncate text-sm text-muted-foreground">{order.customerEmail}</p>
                    {order.reviewStatus && (
                      <p className="truncate text-xs text-muted-foreground">
                        {REVIEW_LABELS[order.reviewStatus]}
                      </p>
                    )}
                  </div>
                  <div className="flex shrink-0 items-center gap-3">
                    <span className="text-sm font-semibold tabular-nums">{formatPrice(order.total)}</span>
                    <AdminOrderStatusBadge
                      status={order.status}
                      paymentStatus={order.paymentDeclined ? 'denied' : undefined}
                    />
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

export function RecentOrdersSkeleton() {
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Recent Orders</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {Array.from({ length: RECENT_ORDERS }, (_, row) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
          <div key={row} className="flex items-center justify-between gap-4">
            <div className="flex flex-col gap-2">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-3 w-44" />
            </div>
            <Skeleton className="h-5 w-24" />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}

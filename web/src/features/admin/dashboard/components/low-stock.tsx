import type { DashboardView } from '@licensestore/domain';
import { ArrowRight, TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'wouter';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useReadOnly } from '../../auth/api/admin-status';

const keysLeft = (count: number) => `${count} ${count === 1 ? 'key' : 'keys'} left`;

/**
 * Products about to sell out of license keys, so an admin adds keys before orders have to wait for them; with the
 * stock totals and the orders already waiting.
 */
export function LowStock({ dashboard }: { dashboard: DashboardView }) {
  const { lowStock, availableKeys, ordersAwaitingKeys, ordersHeldForReview } = dashboard;
  const readOnly = useReadOnly();
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Low Stock</CardTitle>
        <p className="text-sm text-muted-foreground">
          {availableKeys} {availableKeys === 1 ? 'key' : 'keys'} available, {ordersAwaitingKeys}{' '}
          {ordersAwaitingKeys === 1 ? 'order' : 'orders'} awaiting keys
          {ordersHeldForReview > 0 &&
            `, ${ordersHeldForReview} ${ordersHeldForReview === 1 ? 'order' : 'orders'} held for review`}
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {lowStock.length === 0 ? (
          <p className="text-sm text-muted-foreground">Every product has enough license keys.</p>
        ) : (
          <ul className="divide-y divide-border">
            {lowStock.map((product) => (
              <li key={product.productId} className="flex items-center justify-between gap-3 py-2">
                <span className="flex min-w-0 items-center gap-2 text-sm">
                  <TriangleAlert aria-hidden="true" className="size-4 shrink-0 text-destructive" />
                  <span className="truncate">{product.productName}</span>
                </span>
                <span className="shrink-0 text-sm font-medium tabular-nums">
                  {keysLeft(product.available)}
                </span>
              </li>
            ))}
          </ul>
        )}
        <Link
          href="/admin/license-keys"
          className="inline-flex items-center gap-1 self-start rounded-sm text-sm font-medium text-primary hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
        >
          {readOnly ? 'View license keys' : 'Manage license keys'}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </CardContent>
    </Card>
  );
}

export function LowStockSkeleton() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Low Stock</CardTitle>
        <Skeleton className="h-4 w-48" />
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-3/4" />
      </CardContent>
    </Card>
  );
}

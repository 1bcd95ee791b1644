import type { OrderAsOfView } from '@licensestore/domain/audit';
import { useId, useState } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { AdminOrderStatusBadge } from '@/features/admin/components/admin-order-status-badge';
import { REVIEW_LABELS } from '@/features/admin/orders/utils/review-labels';
import { isNotFound } from '@/lib/api';
import { formatDateTime } from '@/lib/date-time';
import { formatPrice } from '@/lib/format';
import { useOrderAsOf } from '../api/get-order-as-of';
import { MomentPicker } from './moment-picker';

function OrderState({ order }: { order: OrderAsOfView }) {
  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-muted-foreground">Status</dt>
        <dd>
          <AdminOrderStatusBadge status={order.status} paymentStatus={order.payment} />
        </dd>
        <dt className="text-muted-foreground">Payment</dt>
        <dd className="capitalize">{order.payment}</dd>
        <dt className="text-muted-foreground">Customer</dt>
        <dd>
          {order.customer.name} ({order.customer.email})
        </dd>
        <dt className="text-muted-foreground">Total</dt>
        <dd className="font-semibold tabular-nums">{formatPrice(order.total)}</dd>
        <dt className="text-muted-foreground">Keys delivered</dt>
        <dd>{order.fulfilled ? 'Every unit has its key' : 'Not yet'}</dd>
        {order.reviewStatus && (
          <>
            <dt className="text-muted-foreground">Review</dt>
            <dd>{REVIEW_LABELS[order.reviewStatus]}</dd>
          </>
        )}
        <dt className="text-muted-foreground">Last event</dt>
        <dd>
          {order.lastEvent.type} at{' '}
          <time dateTime={order.lastEvent.recordedAt}>{formatDateTime(order.lastEvent.recordedAt)}</time>
        </dd>
      </dl>
      <ul aria-label="Order lines" className="divide-y divide-border rounded-md border border-border">
        {order.lines.map((line) => (
          <li key={line.lineId} className="grid gap-1 p-3 text-sm">
            <div className="flex flex-wrap justify-between gap-x-4">
              <span className="font-medium">{line.productName}</span>
              <span className="tabular-nums">
                {line.quantity} × {formatPrice(line.unitPrice)} = {formatPrice(line.lineTotal)}
              </span>
            </div>
            <p className="font-mono text-xs text-muted-foreground">
              {line.keys.length === 0 ? 'No license key yet' : line.keys.map((key) => key.key).join(', ')}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The order as it stood at a chosen moment, folded from its events by the server; keys masked. */
export function OrderAsOfCard({ orderId }: { orderId: string }) {
  const titleId = useId();
  const [at, setAt] = useState(() => new Date().toISOString());
  const { data: order, error, isPending, refetch, isRefetching } = useOrderAsOf(orderId, at);
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader className="gap-4">
        <CardTitle id={titleId}>As of</CardTitle>
        <MomentPicker label="Show the order as it stood at" at={at} onPick={setAt} />
      </CardHeader>
      <CardContent>
        {isNotFound(error) ? (
          <p className="rounded-md border border-border p-4 text-sm text-muted-foreground">
            The order did not exist yet at {formatDateTime(at)}.
          </p>
        ) : error ? (
          <LoadError
            title="The order could not be folded"
            error={error}
            onRetry={() => refetch()}
            retrying={isRefetching}
          />
        ) : isPending ? (
          <Skeleton className="h-48" />
        ) : (
          <OrderState order={order} />
        )}
      </CardContent>
    </Card>
  );
}

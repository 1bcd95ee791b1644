import type { BackOfficeOrderView, OrderRefundView } from '@licensestore/domain';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { actorName } from '@/features/admin/components/actor-name';
import { formatDateTime } from '@/lib/date-time';
import { formatPrice } from '@/lib/format';
import { useOrderTimeline } from '../api/get-order-timeline';

const STATUS: Record<OrderRefundView['status'], string> = {
  requested: 'Requested',
  completed: 'Completed',
  failed: 'Failed',
};

/**
 * Who asked for each of the order's refunds, by refund id, as a person is named: the order's own events record it
 * (the refund row keeps only an id), and the timeline on the same page reads them with each admin's username.
 */
function useRefundRequesters(orderId: string): Map<string, string> {
  const { data: entries = [] } = useOrderTimeline(orderId);
  const requesters = new Map<string, string>();
  for (const entry of entries) {
    if (entry.type === 'OrderRefundRequested' && typeof entry.data.refundId === 'string') {
      requesters.set(entry.data.refundId, actorName(entry.actor));
    }
  }
  return requesters;
}

function RefundRow({ refund, requester }: { refund: OrderRefundView; requester: string | undefined }) {
  const units = refund.units.map((unit) => unit.productName);
  return (
    <li className="grid gap-1 rounded-lg border border-border p-3 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium tabular-nums">{formatPrice(refund.amount)}</span>
        <Badge variant={refund.status === 'failed' ? 'sale' : 'secondary'}>{STATUS[refund.status]}</Badge>
      </div>
      <p>{units.length > 0 ? units.join(', ') : 'Money only (no units)'}</p>
      <p className="text-muted-foreground">
        {refund.reason ?? "Made in PayPal's dashboard"}
        {requester ? ` · by ${requester}` : ''} · {formatDateTime(refund.requestedAt)}
      </p>
      {refund.status === 'failed' && (
        <p className="text-destructive">
          {refund.failureMessage} ({refund.failureCode})
        </p>
      )}
    </li>
  );
}

/** The order's refunds, newest last, with what was refunded and what the store keeps. */
export function OrderRefundsCard({ order }: { order: BackOfficeOrderView }) {
  const requesters = useRefundRequesters(order.id);
  return (
    <Card aria-labelledby="order-refunds">
      <CardHeader>
        <CardTitle id="order-refunds">Refunds</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid grid-cols-2 gap-4 text-sm">
          <div>
            <dt className="text-muted-foreground">Refunded</dt>
            <dd className="font-medium tabular-nums">{formatPrice(order.refundedTotal)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Net</dt>
            <dd className="font-medium tabular-nums">{formatPrice(order.netTotal)}</dd>
          </div>
        </dl>
        {order.refunds.length === 0 ? (
          <p className="text-muted-foreground">No refunds</p>
        ) : (
          <ul className="grid gap-2" aria-label="Refunds of this order">
            {order.refunds.map((refund) => (
              <RefundRow
                key={refund.id}
                refund={refund}
                requester={refund.refundId ? requesters.get(refund.refundId) : undefined}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

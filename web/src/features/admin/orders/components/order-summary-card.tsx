import type { OrderView } from '@licensestore/domain';
import { Mail } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ReceiptLink } from '@/components/receipt-link';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/lib/date-time';
import { formatPrice } from '@/lib/format';
import { useReadOnly } from '../../auth/api/admin-status';
import { AdminOrderStatusBadge } from '../../components/admin-order-status-badge';
import { useResendDeliveryEmail } from '../api/resend-delivery-email';
import { resendUnavailableReason } from '../utils/resend-unavailable';
import { REVIEW_LABELS } from '../utils/review-labels';
import { OrderStatusSelect } from './order-status-select';
import { RefundDialog } from './refund-dialog';

function Field({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="font-medium [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/**
 * Who bought, what it cost, where it stands; the status is changed, the order refunded and the delivery email
 * resent from here (disabled, with the reason beside it, on an order whose keys are not sent again). `etag` names
 * the version shown: each of those is refused if the order changed since.
 */
export function OrderSummaryCard({ order, etag }: { order: OrderView; etag: string | null }) {
  const resend = useResendDeliveryEmail(order.id, order.customerEmail, etag);
  const readOnly = useReadOnly();
  const resendUnavailable = resendUnavailableReason(order);
  return (
    <Card aria-labelledby="order-summary">
      <CardHeader>
        <CardTitle id="order-summary">Order details</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        <dl className="grid gap-4 sm:grid-cols-2">
          <Field term="Customer">{order.customerName}</Field>
          <Field term="Email">{order.customerEmail}</Field>
          <Field term="Total">{formatPrice(order.total)}</Field>
          <Field term="Date">{formatDateTime(order.createdAt)}</Field>
          <Field term="Status">
            <AdminOrderStatusBadge status={order.status} paymentStatus={order.paymentStatus} />
          </Field>
          <Field term="Receipt">{order.receiptNumber ?? 'Not issued yet'}</Field>
          {order.reviewStatus && (
            <Field term="Review">
              <Link href="/admin/reviews" className="text-primary underline-offset-4 hover:underline">
                {REVIEW_LABELS[order.reviewStatus]}
              </Link>
            </Field>
          )}
        </dl>
        {order.receiptNumber && <ReceiptLink order={order} className="w-fit" />}
        {!readOnly && (
          <div className="flex flex-wrap items-center gap-3">
            <OrderStatusSelect order={order} etag={etag} className="w-40" />
            <RefundDialog orderId={order.id} etag={etag} />
            <Button
              variant="outline"
              onClick={() => resend.mutate()}
              disabled={resend.isPending || resendUnavailable !== null}
              aria-describedby={resendUnavailable ? 'resend-unavailable' : undefined}
            >
              <Mail aria-hidden="true" className="size-4" />
              {resend.isPending ? 'Requesting...' : 'Resend delivery email'}
            </Button>
            {resendUnavailable && (
              <p id="resend-unavailable" className="text-sm text-muted-foreground">
                {resendUnavailable}
              </p>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

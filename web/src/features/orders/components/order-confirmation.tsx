import { orderNumber } from '@licensestore/domain/orders/order-number';
import { Link } from 'wouter';
import { OrderStatusBadge } from '@/components/order-status-badge';
import { buttonClasses } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { isNotFound } from '@/lib/api';
import { useOrder, useOrderItems } from '../api/get-order';
import { useOrderLink } from '../api/open-order-link';
import { useOrderUpdates } from '../api/use-order-updates';
import { keysTakenBack, keysWork, orderStage } from '../utils/order-stage';
import { ConfirmationHeader } from './confirmation-header';
import { DeliveryEmailLine } from './delivery-email-line';
import { LicenseKeys } from './license-keys';
import { NextSteps } from './next-steps';
import { OrderConfirmationSkeleton } from './order-confirmation-skeleton';
import { OrderNotFound } from './order-not-found';
import { OrderSummary } from './order-summary';
import { PaymentReviewNotice } from './payment-review-notice';

const orderDate = (createdAt: string | null) =>
  createdAt
    ? new Date(createdAt).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
    : 'Today';

/**
 * Order confirmation; the keys fill in by themselves as the server delivers them, for a visitor
 * with access to them (the paying browser, the email's link, the customer signed in with the order's address).
 * A payment PayPal still reviews, or declined, has its own page, which turns into the confirmation by itself when
 * PayPal completes it; a cancelled or refunded order says so in its heading and its summary.
 */
export function OrderConfirmation({ orderId }: { orderId: string }) {
  const link = useOrderLink(orderId);
  const settled = link !== 'opening';
  const order = useOrder(orderId, settled);
  const items = useOrderItems(orderId, settled);
  useOrderUpdates(orderId, order.isSuccess);

  if (order.isPending || (order.isSuccess && items.isPending)) return <OrderConfirmationSkeleton />;
  if (isNotFound(order.error) || isNotFound(items.error)) return <OrderNotFound />;
  const failed = order.error ?? items.error;
  if (failed || !order.data || !items.data) {
    const retrying = order.isFetching || items.isFetching;
    return (
      <LoadError
        title="Your order could not be loaded"
        error={failed ?? new Error('Unknown error')}
        retrying={retrying}
        onRetry={() => {
          order.refetch();
          items.refetch();
        }}
      />
    );
  }

  const { customerName, customerEmail, status, paymentStatus, createdAt } = order.data;
  const stage = orderStage(order.data);
  return (
    <div className="grid gap-6">
      <ConfirmationHeader stage={stage} customerName={customerName} />
      <PaymentReviewNotice stage={stage} customerEmail={customerEmail} />

      <Card aria-label="Order details">
        <CardContent className="grid gap-4 pt-6">
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
            <div>
              <dt className="text-sm text-muted-foreground">Order Number</dt>
              <dd className="font-mono font-semibold">{orderNumber(order.data.id)}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted-foreground">Date</dt>
              <dd className="font-semibold">{orderDate(createdAt)}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted-foreground">Status</dt>
              <dd>
                <OrderStatusBadge status={status} paymentStatus={paymentStatus} />
              </dd>
            </div>
          </dl>
          <DeliveryEmailLine order={order.data} stage={stage} />
        </CardContent>
      </Card>

      {stage !== 'declined' && (
        <LicenseKeys
          items={items.data}
          customerEmail={customerEmail}
          linkRefused={link === 'refused'}
          waitingFor={stage === 'under-review' ? 'payment' : stage === 'being-checked' ? 'check' : undefined}
          noMoreKeys={keysTakenBack(stage)}
        />
      )}
      <OrderSummary order={order.data} items={items.data} />
      {keysWork(stage) && <NextSteps />}

      <div className="flex justify-center">
        <Link href="/" className={buttonClasses('primary')}>
          Back to Home
        </Link>
      </div>
    </div>
  );
}

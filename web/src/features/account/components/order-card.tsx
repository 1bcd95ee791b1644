import type { MyOrderView } from '@licensestore/contract/orders';
import type { OrderItemView, OrderKeyStatus } from '@licensestore/domain';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import { KeyStatusBadge } from '@/components/key-status-badge';
import { LicenseKeyText } from '@/components/license-key-text';
import { OrderStatusBadge } from '@/components/order-status-badge';
import { ReceiptLink } from '@/components/receipt-link';
import { Skeleton } from '@/components/ui/skeleton';
import { formatPrice, toCents } from '@/lib/format';
import { orderDate } from '../utils/order-date';
import { CopyKeyButton } from './copy-key-button';
import { OrderActions } from './order-actions';

function LicenseKeys({
  keys,
  statuses,
  productName,
}: {
  keys: string[];
  statuses: OrderKeyStatus[] | undefined;
  productName: string;
}) {
  return (
    <div className="mt-2 text-sm">
      <p className="font-medium">License Key:</p>
      <ul className="mt-1 flex flex-col gap-1">
        {/* Keys are unique across the inventory (it refuses duplicates), so a key's text names its row. */}
        {keys.map((key, index) => {
          const status = statuses?.[index];
          const gone = status !== undefined && status !== 'valid';
          return (
            <li key={key} className="flex flex-wrap items-center gap-2">
              {/* A 29-character key wraps between its groups on a phone rather than widen the page. */}
              <LicenseKeyText
                licenseKey={key}
                className={`inline-block rounded bg-background px-2 py-1 ${gone ? 'text-muted-foreground line-through' : ''}`}
              />
              {gone ? (
                <KeyStatusBadge status={status} audience="customer" />
              ) : (
                <CopyKeyButton licenseKey={key} productName={productName} />
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function OrderItemRow({ item }: { item: OrderItemView }) {
  return (
    <li className="rounded-md bg-muted p-3">
      {/* The price stays beside the name at every width; the keys take the full width below. */}
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="font-medium">{item.productName}</p>
          <p className="text-sm text-muted-foreground">Quantity: {item.quantity}</p>
        </div>
        <p className="shrink-0 font-medium">{formatPrice(item.price)}</p>
      </div>
      {item.licenseKeys && item.licenseKeys.length > 0 && (
        <LicenseKeys keys={item.licenseKeys} statuses={item.keyStatuses} productName={item.productName} />
      )}
    </li>
  );
}

/** Money that went back: the refunded amount and what the customer paid in the end; nothing before a refund. */
function RefundLine({ order }: { order: MyOrderView }) {
  if (toCents(order.refundedTotal) === 0) return null;
  return (
    <p className="w-full text-sm text-muted-foreground sm:text-right">
      Refunded <span className="tabular-nums">-{formatPrice(order.refundedTotal)}</span>
      {' · '}
      <span className="font-semibold text-foreground">
        Net paid <span className="tabular-nums">{formatPrice(order.netTotal)}</span>
      </span>
    </p>
  );
}

/** A refund of part of an order leaves its status as it was: the card says so beside the badge. */
const partlyRefunded = (order: MyOrderView) =>
  toCents(order.refundedTotal) > 0 && order.status !== 'refunded' && order.paymentStatus !== 'refunded';

export function OrderCard({ order }: { order: MyOrderView }) {
  const headingId = `order-${order.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="rounded-lg border border-border bg-card text-card-foreground shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-border p-4 sm:p-6">
        <div>
          <h2 id={headingId} className="text-lg font-semibold">
            Order {orderNumber(order.id)}
          </h2>
          <p className="text-sm text-muted-foreground">
            <time dateTime={order.createdAt ?? undefined}>{orderDate(order.createdAt)}</time>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 sm:justify-end">
          <OrderStatusBadge status={order.status} paymentStatus={order.paymentStatus} />
          {partlyRefunded(order) && (
            <span className="inline-flex items-center whitespace-nowrap rounded-full bg-yellow-100 px-2.5 py-0.5 text-xs font-semibold text-yellow-800 dark:bg-yellow-900/50 dark:text-yellow-200">
              Partly refunded
            </span>
          )}
          <p className="font-semibold">Total: {formatPrice(order.total)}</p>
          <RefundLine order={order} />
        </div>
      </div>
      <div className="p-4 sm:p-6">
        <h3 className="mb-3 text-sm font-semibold">Items</h3>
        {order.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No items found</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {order.items.map((item) => (
              <OrderItemRow key={item.id} item={item} />
            ))}
          </ul>
        )}
        <ReceiptLink order={order} className="mt-4" />
      </div>
      <OrderActions order={order} />
    </article>
  );
}

export function OrderCardSkeleton() {
  return (
    <div data-testid="order-card-skeleton" className="rounded-lg border border-border bg-card shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-border p-4 sm:p-6">
        <div className="flex flex-col gap-2">
          <Skeleton className="h-6 w-40" />
          <Skeleton className="h-4 w-32" />
        </div>
        <Skeleton className="h-6 w-36" />
      </div>
      <div className="flex flex-col gap-3 p-4 sm:p-6">
        <Skeleton className="h-4 w-16" />
        <Skeleton className="h-16 w-full" />
      </div>
    </div>
  );
}

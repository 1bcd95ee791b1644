import type { BuyerOrderView } from '@licensestore/contract/orders';
import type { OrderItemView } from '@licensestore/domain';
import { ReceiptLink } from '@/components/receipt-link';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCents, formatPrice, toCents } from '@/lib/format';

const refundDate = (completedAt: string) =>
  new Date(completedAt).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

/** What a refund covered: its items by name (twice the same item reads "2 x"), or money only. */
function refundedItems(productNames: readonly string[]) {
  if (productNames.length === 0) return 'money only';
  const counts = new Map<string, number>();
  for (const name of productNames) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, count]) => (count > 1 ? `${count} x ${name}` : name)).join(', ');
}

/** Every refund under the total, then what the buyer paid in the end. */
function Refunds({ order }: { order: BuyerOrderView }) {
  if (order.refunds.length === 0) return null;
  return (
    <>
      <ul aria-label="Refunds" className="mt-2 grid gap-1 text-sm">
        {order.refunds.map((refund) => (
          <li key={`${refund.completedAt}-${refund.amount}`} className="flex justify-between gap-4">
            <span className="text-muted-foreground">
              Refunded {refundDate(refund.completedAt)} ({refundedItems(refund.productNames)})
            </span>
            <span className="shrink-0 tabular-nums">-{formatPrice(refund.amount)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 flex justify-between border-t border-border pt-2 text-base font-semibold">
        <span>Net paid</span>
        <span className="tabular-nums">{formatPrice(order.netTotal)}</span>
      </p>
    </>
  );
}

export function OrderSummary({ order, items }: { order: BuyerOrderView; items: OrderItemView[] }) {
  return (
    <Card aria-labelledby="confirmation-summary">
      <CardHeader>
        <CardTitle id="confirmation-summary">Order Summary</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2 text-sm">
          {items.map((item) => (
            <li key={item.id} className="flex justify-between gap-4">
              <span>
                {item.productName} x {item.quantity}
              </span>
              <span className="tabular-nums">{formatCents(toCents(item.price) * item.quantity)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-4 flex justify-between border-t border-border pt-4 text-base font-semibold">
          <span>Total</span>
          <span className="tabular-nums">{formatPrice(order.total)}</span>
        </p>
        <Refunds order={order} />
        <ReceiptLink order={order} className="mt-4" />
      </CardContent>
    </Card>
  );
}

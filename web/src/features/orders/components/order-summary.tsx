import type { OrderItemView, OrderView } from '@licensestore/shared';
import { ReceiptLink } from '@/components/receipt-link';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCents, formatPrice, toCents } from '@/lib/format';

export function OrderSummary({ order, items }: { order: OrderView; items: OrderItemView[] }) {
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
        <ReceiptLink order={order} className="mt-4" />
      </CardContent>
    </Card>
  );
}

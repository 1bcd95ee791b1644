import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ProductThumbnail } from '@/components/ui/product-thumbnail';
import { formatCents } from '@/lib/format';
import type { CheckoutCart } from '../types';

/**
 * Order Summary: tax is fixed at zero, so the total is the subtotal. `onEditCart` (absent once payment has begun)
 * lets the shopper change the cart without leaving checkout.
 */
export function OrderSummaryCard({ cart, onEditCart }: { cart: CheckoutCart; onEditCart?: () => void }) {
  return (
    <Card aria-labelledby="order-summary" className="lg:sticky lg:top-24">
      <CardHeader className="flex flex-row items-center justify-between gap-4">
        <CardTitle id="order-summary">Order Summary</CardTitle>
        {onEditCart && (
          <Button variant="ghost" className="h-8 px-2 text-sm text-primary" onClick={onEditCart}>
            Edit cart
          </Button>
        )}
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-border" aria-label="Items">
          {cart.lines.map((line) => (
            <li key={line.productId} className="flex items-start gap-3 py-3 first:pt-0">
              <ProductThumbnail src={line.imageUrl} />
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words">{line.productName}</p>
                <p className="text-sm text-muted-foreground">Qty: {line.quantity}</p>
              </div>
              <p className="font-medium tabular-nums">{formatCents(line.lineTotalCents)}</p>
            </li>
          ))}
        </ul>
        <dl className="mt-3 grid gap-2 border-t border-border pt-4 text-sm">
          <div className="flex justify-between">
            <dt className="text-muted-foreground">Subtotal</dt>
            <dd className="tabular-nums">{formatCents(cart.subtotalCents)}</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-muted-foreground">Tax</dt>
            <dd className="tabular-nums">{formatCents(0)}</dd>
          </div>
          <div className="flex justify-between border-t border-border pt-3 text-base font-semibold">
            <dt>Total</dt>
            <dd className="tabular-nums">{formatCents(cart.subtotalCents)}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

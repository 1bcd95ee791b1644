import { Minus, Plus, ShoppingCart, Trash2 } from 'lucide-react';
import { useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { ProductThumbnail } from '@/components/ui/product-thumbnail';
import { Sheet } from '@/components/ui/sheet';
import { formatCents } from '@/lib/format';
import { cart, cartButtonRef, setCartPanelOpen, useCartLines, useCartPanelOpen } from '../api/use-cart';
import { lineTotalCents, MAX_QUANTITY, subtotalCents } from '../utils/cart-store';

/** The cart side panel: lines with quantity controls, the subtotal and the way to checkout. */
export function CartSheet() {
  const open = useCartPanelOpen();
  const lines = useCartLines();
  const [, navigate] = useLocation();

  return (
    <Sheet open={open} onOpenChange={setCartPanelOpen} title="Shopping Cart" returnFocus={cartButtonRef}>
      {lines.length === 0 ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-3 text-center">
          <ShoppingCart aria-hidden="true" className="size-12 text-muted-foreground" />
          <p className="text-lg font-medium">Your cart is empty</p>
          <p className="text-sm text-muted-foreground">Add some products to get started</p>
          <Button variant="outline" onClick={() => setCartPanelOpen(false)}>
            Continue Shopping
          </Button>
        </div>
      ) : (
        <>
          <ul className="-mx-6 flex-1 divide-y divide-border overflow-y-auto px-6" aria-label="Cart items">
            {lines.map((line) => (
              <li key={line.productId} className="flex gap-3 py-4">
                <ProductThumbnail src={line.imageUrl} size="lg" />
                <div className="flex min-w-0 flex-1 flex-col gap-2">
                  <p className="truncate font-medium">{line.productName}</p>
                  <p className="text-sm text-muted-foreground">{formatCents(Math.round(line.price * 100))}</p>
                  <div className="flex items-center gap-2">
                    <Button
                      variant="outline"
                      className="size-8 px-0"
                      aria-label={`Decrease quantity of ${line.productName}`}
                      disabled={line.quantity <= 1}
                      onClick={() => cart.setQuantity(line.productId, line.quantity - 1)}
                    >
                      <Minus aria-hidden="true" className="size-4" />
                    </Button>
                    <span className="w-6 text-center text-sm tabular-nums">
                      <span className="sr-only">Quantity </span>
                      {line.quantity}
                    </span>
                    <Button
                      variant="outline"
                      className="size-8 px-0"
                      aria-label={`Increase quantity of ${line.productName}`}
                      disabled={line.quantity >= MAX_QUANTITY}
                      onClick={() => cart.setQuantity(line.productId, line.quantity + 1)}
                    >
                      <Plus aria-hidden="true" className="size-4" />
                    </Button>
                  </div>
                </div>
                {/* Line total above, remove below, both on the right edge: every row's remove button in one column. */}
                <div className="flex shrink-0 flex-col items-end justify-between">
                  <p className="text-sm font-medium tabular-nums">{formatCents(lineTotalCents(line))}</p>
                  <Button
                    variant="ghost"
                    className="size-8 px-0 text-muted-foreground hover:text-destructive"
                    aria-label={`Remove ${line.productName}`}
                    onClick={() => cart.remove(line.productId)}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
          <div className="flex flex-col gap-4 border-t border-border pt-4">
            <div className="flex items-center justify-between text-base font-semibold">
              <span>Subtotal</span>
              <span className="tabular-nums">{formatCents(subtotalCents(lines))}</span>
            </div>
            <Button
              className="w-full"
              onClick={() => {
                setCartPanelOpen(false);
                navigate('/checkout');
              }}
            >
              Proceed to Checkout
            </Button>
          </div>
        </>
      )}
    </Sheet>
  );
}

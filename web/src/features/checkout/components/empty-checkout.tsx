import { ShoppingCart } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';

export function EmptyCheckout() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-border bg-card px-6 py-16 text-center">
      <ShoppingCart aria-hidden="true" className="size-12 text-muted-foreground" />
      <h2 className="text-xl font-semibold">Your cart is empty</h2>
      <p className="text-muted-foreground">Add some products to checkout.</p>
      <Link href="/products" className={buttonClasses('primary', 'mt-2')}>
        Browse Products
      </Link>
    </div>
  );
}

import type { Product } from '@licensestore/domain';
import { Check, Monitor, ShoppingCart } from 'lucide-react';
import { PaymentIcons } from '@/components/payment-icons';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { StarRating } from '@/components/ui/star-rating';
import { PriceBlock } from './price-block';
import { StockStatus } from './stock-status';

/** The static claims of product pages, the same for every product. */
const BENEFITS = [
  'Lifetime license with a one-time payment',
  'Delivery by email within 15-30 minutes',
  '100% genuine license key',
  '24/7 support with live chat',
  '30-day money-back guarantee',
];

/** Everything beside the product image: what it is, what it costs and the button that buys it. */
export function ProductSummary({ product, onAddToCart }: { product: Product; onAddToCart: () => void }) {
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="primary">{product.category}</Badge>
        <span className="inline-flex items-center gap-1.5 text-sm text-muted-foreground">
          <Monitor aria-hidden="true" className="size-4" />
          {product.platform}
        </span>
      </div>
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{product.name}</h1>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        {/* The store's rating over every product it sells, not this product's: a new product shows it too. */}
        <span className="text-muted-foreground">Store rating</span>
        <StarRating rating={4.8} />
        <span className="font-semibold">4.8</span>
        <span className="text-muted-foreground">(1,200+ reviews)</span>
      </p>
      <PriceBlock product={product} />
      <div className="flex flex-col gap-3">
        <StockStatus inStock={product.inStock} className="text-sm" />
        <Button
          variant={product.inStock ? 'primary' : 'outline'}
          className="h-12 w-full text-base shadow-md"
          disabled={!product.inStock}
          onClick={onAddToCart}
        >
          <ShoppingCart aria-hidden="true" className="size-5" />
          {product.inStock ? 'Add to Cart - Buy Now' : 'Out of Stock'}
        </Button>
        <div className="flex flex-wrap items-center justify-center gap-x-3 gap-y-2 text-xs text-muted-foreground">
          <span>Secure checkout</span>
          <PaymentIcons />
        </div>
      </div>
      <ul
        className="flex flex-col gap-2 border-t border-border pt-5"
        aria-label="Included with every purchase"
      >
        {BENEFITS.map((benefit) => (
          <li key={benefit} className="flex items-start gap-2">
            <Check aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-success" />
            {benefit}
          </li>
        ))}
      </ul>
    </div>
  );
}

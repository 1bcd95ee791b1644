import type { Product } from '@licensestore/domain';
import { Badge } from '@/components/ui/badge';
import { formatPrice } from '@/lib/format';
import { saleOf } from '@/lib/pricing';

/** The detail page's large price: the sale price, the struck regular price and 'Save N%' when on sale. */
export function PriceBlock({ product }: { product: Product }) {
  const sale = saleOf(product);
  return (
    <div className="flex flex-col gap-1 rounded-lg border border-border bg-muted/40 p-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        {sale ? (
          <>
            <span className="text-4xl font-extrabold tracking-tight">
              <span className="sr-only">Sale price </span>
              {formatPrice(sale.salePrice)}
            </span>
            <s className="text-lg text-muted-foreground">
              <span className="sr-only">Regular price </span>
              {formatPrice(sale.regularPrice)}
            </s>
            <Badge variant="sale">Save {sale.percentOff}%</Badge>
          </>
        ) : (
          <span className="text-4xl font-extrabold tracking-tight">{formatPrice(product.regularPrice)}</span>
        )}
      </div>
      <p className="text-sm text-muted-foreground">One-time payment in USD · Lifetime license</p>
    </div>
  );
}

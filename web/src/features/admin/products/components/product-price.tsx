import type { Product } from '@licensestore/domain';
import { formatPrice } from '@/lib/format';

/** The sale price with the regular one struck through when a sale price exists, else the regular price. */
export function ProductPrice({ product }: { product: Pick<Product, 'regularPrice' | 'salePrice'> }) {
  if (!product.salePrice) return <span className="tabular-nums">{formatPrice(product.regularPrice)}</span>;
  return (
    <span className="flex flex-wrap items-baseline gap-x-2 tabular-nums">
      <span className="font-medium">{formatPrice(product.salePrice)}</span>
      <s className="relative text-sm text-muted-foreground">
        {/* A strike-through is not read out; say what the second price is. (`relative` keeps this absolutely
            positioned text inside the table's sideways scroll, instead of widening the page on phones.) */}
        <span className="sr-only">regular price </span>
        {formatPrice(product.regularPrice)}
      </s>
    </span>
  );
}

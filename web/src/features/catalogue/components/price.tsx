import type { Product } from '@licensestore/domain';
import { formatPrice } from '@/lib/format';
import { saleOf } from '@/lib/pricing';

/** The sale price with the regular price struck through when on sale, otherwise the regular price. */
export function Price({ product, className = '' }: { product: Product; className?: string }) {
  const sale = saleOf(product);
  if (!sale) {
    return <span className={`font-semibold ${className}`}>{formatPrice(product.regularPrice)}</span>;
  }
  return (
    <span className={`inline-flex items-baseline gap-2 ${className}`}>
      <span className="font-semibold text-primary">
        <span className="sr-only">Sale price </span>
        {formatPrice(sale.salePrice)}
      </span>
      <s className="text-sm text-muted-foreground">
        <span className="sr-only">Regular price </span>
        {formatPrice(sale.regularPrice)}
      </s>
    </span>
  );
}

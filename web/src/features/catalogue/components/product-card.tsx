import type { Product } from '@licensestore/domain';
import { Monitor } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { useHydrated } from '@/lib/hydrated';
import { saleOf } from '@/lib/pricing';
import { Price } from './price';
import { StockStatus } from './stock-status';

/** The box art is square (600 × 600); the size attributes reserve its box before it loads. */
const IMAGE_SIZE = 600;

/**
 * `onScreen`: likely visible when the page opens, so its picture is fetched at once and ahead of the rest. Any other
 * card's picture is left out of a page drawn on the server (inside `<noscript>`, so browsing without JavaScript still
 * shows it) and added once the browser has taken the page over: fetched with the page, the pictures below the first
 * screen would share its first connections with the script and the picture that opens it.
 */
export function ProductCard({ product, onScreen = false }: { product: Product; onScreen?: boolean }) {
  const sale = saleOf(product);
  const hydrated = useHydrated();
  const picture = (
    <img
      src={product.imageUrl}
      alt=""
      width={IMAGE_SIZE}
      height={IMAGE_SIZE}
      loading={onScreen ? 'eager' : 'lazy'}
      fetchPriority={onScreen ? 'high' : 'auto'}
      decoding={onScreen ? 'auto' : 'async'}
      className="size-full object-cover transition-transform duration-300 group-hover:scale-105"
    />
  );
  return (
    <Link
      href={`/product/${product.id}`}
      className="group flex w-full flex-col overflow-hidden rounded-lg border border-border bg-card text-card-foreground shadow-sm transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
    >
      {/* The box art is drawn on a transparent ground: no lighter slab behind it in the dark theme. */}
      <div className="aspect-square overflow-hidden bg-muted dark:bg-transparent">
        {onScreen || hydrated ? picture : <noscript>{picture}</noscript>}
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-3 sm:p-4">
        {/* Beside the category, never over the picture, where it would cover the name on the box on a phone. */}
        <div className="flex min-h-6 flex-wrap items-center justify-between gap-x-2 gap-y-1">
          <p className="text-xs font-semibold tracking-wide text-primary uppercase">{product.category}</p>
          {sale && <Badge variant="sale">{sale.percentOff}% OFF</Badge>}
        </div>
        <h3 className="line-clamp-2 text-sm font-semibold sm:text-base">{product.name}</h3>
        <p className="flex items-center gap-1.5 text-xs text-muted-foreground sm:text-sm">
          <Monitor aria-hidden="true" className="size-3.5 shrink-0" />
          {product.platform}
        </p>
        <div className="mt-auto flex flex-col items-start gap-1 pt-2 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between sm:gap-x-3">
          <Price product={product} className="text-base sm:text-lg" />
          <StockStatus inStock={product.inStock} />
        </div>
      </div>
    </Link>
  );
}

export function ProductCardSkeleton() {
  return (
    <div
      data-testid="product-card-skeleton"
      className="flex flex-col overflow-hidden rounded-lg border border-border bg-card"
    >
      <Skeleton className="aspect-square rounded-none" />
      <div className="flex flex-col gap-2 p-3 sm:p-4">
        <Skeleton className="h-3 w-1/3" />
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="mt-2 h-6 w-2/3" />
      </div>
    </div>
  );
}

import type { Product } from '@licensestore/shared';
import { Link } from 'wouter';
import { Skeleton } from '@/components/ui/skeleton';
import { saleOf } from '@/lib/pricing';
import { Price } from './price';

export function ProductCard({ product }: { product: Product }) {
  const sale = saleOf(product);
  return (
    <Link
      href={`/product/${product.id}`}
      className="group flex w-full flex-col overflow-hidden rounded-lg border border-border bg-card text-card-foreground shadow-sm transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
    >
      <div className="relative aspect-square bg-muted">
        <img
          src={product.imageUrl}
          alt=""
          loading="lazy"
          className="size-full object-cover transition-transform group-hover:scale-105"
        />
        {sale && (
          <span className="absolute top-2 right-2 rounded-full bg-destructive px-2 py-0.5 text-xs font-semibold text-destructive-foreground">
            {sale.percentOff}% OFF
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="line-clamp-2 font-medium">{product.name}</h3>
        <Price product={product} className="mt-auto" />
      </div>
    </Link>
  );
}

export function ProductCardSkeleton() {
  return (
    <div className="flex flex-col overflow-hidden rounded-lg border border-border bg-card">
      <Skeleton className="aspect-square rounded-none" />
      <div className="flex flex-col gap-2 p-4">
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-5 w-1/3" />
      </div>
    </div>
  );
}

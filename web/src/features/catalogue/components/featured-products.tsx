import { ArrowRight } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { useFeaturedProducts } from '../api/get-featured-products';
import { ProductGrid, ProductGridSkeleton } from './product-grid';

/** The home page shows the first 8 featured products. */
const FEATURED_ON_HOME = 8;

export function FeaturedProducts() {
  const { data: products, isPending, isError, error, refetch, isFetching } = useFeaturedProducts();

  return (
    <section aria-labelledby="featured-heading" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <h2 id="featured-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Featured Products
          </h2>
          <p className="text-muted-foreground">Our best-selling licenses, at up to 50% off.</p>
        </div>
        <Link href="/products" className={buttonClasses('outline')}>
          View All Products
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>

      {isPending ? (
        <ProductGridSkeleton count={FEATURED_ON_HOME} label="Loading featured products" />
      ) : isError ? (
        <LoadError
          title="We couldn't load the featured products."
          error={error}
          onRetry={() => refetch()}
          retrying={isFetching}
        />
      ) : products.length === 0 ? (
        <p className="rounded-lg border border-border bg-card p-6 text-muted-foreground">
          No featured products yet. Browse the full catalog instead.
        </p>
      ) : (
        <ProductGrid products={products.slice(0, FEATURED_ON_HOME)} />
      )}
    </section>
  );
}

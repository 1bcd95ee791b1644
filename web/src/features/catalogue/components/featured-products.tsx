import { Link } from 'wouter';
import { Button, buttonClasses } from '@/components/ui/button';
import { useFeaturedProducts } from '../api/get-featured-products';
import { ProductCard, ProductCardSkeleton } from './product-card';

/** The home page shows the first 8 featured products (spec section 9). */
const FEATURED_ON_HOME = 8;

export function FeaturedProducts() {
  const { data: products, isPending, isError, error, refetch, isFetching } = useFeaturedProducts();

  return (
    <section aria-labelledby="featured-heading" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="featured-heading" className="text-2xl font-bold tracking-tight">
          Featured Products
        </h2>
        <Link href="/products" className={buttonClasses('outline')}>
          View All Products
        </Link>
      </div>

      {isPending ? (
        <div className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4" aria-busy="true">
          <span className="sr-only">Loading featured products</span>
          {Array.from({ length: FEATURED_ON_HOME }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <ProductCardSkeleton key={index} />
          ))}
        </div>
      ) : isError ? (
        <div
          role="alert"
          className="flex flex-col items-start gap-3 rounded-lg border border-border bg-card p-6"
        >
          <p className="font-medium">We couldn't load the featured products.</p>
          <p className="text-sm text-muted-foreground">{error.message}</p>
          <Button variant="outline" onClick={() => refetch()} disabled={isFetching}>
            {isFetching ? 'Retrying...' : 'Try again'}
          </Button>
        </div>
      ) : products.length === 0 ? (
        <p className="rounded-lg border border-border bg-card p-6 text-muted-foreground">
          No featured products yet. Browse the full catalogue instead.
        </p>
      ) : (
        <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
          {products.slice(0, FEATURED_ON_HOME).map((product) => (
            <li key={product.id} className="flex">
              <ProductCard product={product} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

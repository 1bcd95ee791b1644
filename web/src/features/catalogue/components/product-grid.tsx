import type { Product } from '@licensestore/domain';
import { ProductCard, ProductCardSkeleton } from './product-card';

const GRID = 'grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4';

export function ProductGrid({ products }: { products: Product[] }) {
  return (
    <ul className={GRID}>
      {products.map((product) => (
        <li key={product.id} className="flex">
          <ProductCard product={product} />
        </li>
      ))}
    </ul>
  );
}

/** Placeholders in the grid's own layout, so the page does not jump when the products arrive. */
export function ProductGridSkeleton({ count, label }: { count: number; label: string }) {
  return (
    <div className={GRID} role="status">
      <span className="sr-only">{label}</span>
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <ProductCardSkeleton key={index} />
      ))}
    </div>
  );
}

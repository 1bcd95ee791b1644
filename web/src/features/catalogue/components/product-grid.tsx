import type { Product } from '@licensestore/domain';
import { ProductCard, ProductCardSkeleton } from './product-card';

const GRID = 'grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4';
/** The first row on a wide screen, two on a phone: cards likely on screen when the page opens. */
const FIRST_CARDS = 4;

/**
 * `prominent`: the grid is what the page opens on (the products page), so its first cards' pictures are fetched
 * with the page, first of all, since one of them is usually the largest thing painted; below the fold (the home
 * page's featured products) they wait until scrolled near.
 */
export function ProductGrid({ products, prominent = false }: { products: Product[]; prominent?: boolean }) {
  return (
    <ul className={GRID}>
      {products.map((product, index) => (
        <li key={product.id} className="flex">
          <ProductCard product={product} onScreen={prominent && index < FIRST_CARDS} />
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

import type { Product } from '@licensestore/domain';
import { PackageSearch } from 'lucide-react';
import { inCategory } from '../utils/categories';
import { ProductGrid } from './product-grid';

/** The products of the chosen category, with how many there are (announced when the filter changes). */
export function ProductCatalog({ products, category }: { products: Product[]; category: string }) {
  const shown = inCategory(products, category);
  return (
    <section aria-labelledby="catalog-count" className="flex flex-col gap-4">
      <h2 id="catalog-count" aria-live="polite" className="text-sm font-medium text-muted-foreground">
        {shown.length} {shown.length === 1 ? 'product' : 'products'}
      </h2>
      {shown.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-6 py-16 text-center">
          <PackageSearch aria-hidden="true" className="size-10 text-muted-foreground" />
          <p className="text-lg font-medium">No products found in this category</p>
        </div>
      ) : (
        <ProductGrid products={shown} prominent />
      )}
    </section>
  );
}

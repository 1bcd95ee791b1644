import { useState } from 'react';
import { Seo } from '@/components/seo/seo';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { useProducts } from '@/features/catalogue/api/get-products';
import { CategoryFilter } from '@/features/catalogue/components/category-filter';
import { ProductCatalog } from '@/features/catalogue/components/product-catalog';
import { ProductGridSkeleton } from '@/features/catalogue/components/product-grid';
import { ALL_CATEGORIES, categoriesOf } from '@/features/catalogue/utils/categories';
import { breadcrumbList } from '@/lib/structured-data';

/** 8 placeholder cards while the catalogue loads. */
const SKELETON_CARDS = 8;
/** 'All' plus the usual number of categories, so the filter row keeps its height when the real one arrives. */
const SKELETON_FILTERS = 5;

const CRUMBS = [
  { name: 'Home', path: '/' },
  { name: 'Products', path: '/products' },
];

const seoFor = (category: string) =>
  category === ALL_CATEGORIES
    ? {
        title: 'All Products',
        description:
          'Browse every genuine software license in the store: office suites, operating systems, antivirus and creative tools, delivered by email within 15-30 minutes.',
      }
    : {
        title: category,
        description: `Genuine ${category} licenses at up to 50% off: a one-time payment, a lifetime license, delivered by email within 15-30 minutes.`,
      };

export default function ProductsRoute() {
  const { data: products, isPending, isError, error, refetch, isFetching } = useProducts();
  const [category, setCategory] = useState(ALL_CATEGORIES);

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 sm:py-10">
      <Seo {...seoFor(category)} structuredData={[breadcrumbList(CRUMBS)]} />
      <Breadcrumb items={[{ name: 'Home', href: '/' }, { name: 'Products' }]} />
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">All Products</h1>
        <p className="text-muted-foreground">
          Genuine lifetime licenses for a one-time payment, delivered to your inbox within 15-30 minutes.
        </p>
      </div>

      {isPending ? (
        <>
          <div className="flex flex-wrap gap-2" aria-hidden="true">
            {Array.from({ length: SKELETON_FILTERS }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
              <Skeleton key={index} className="h-9 w-28 rounded-full" />
            ))}
          </div>
          <ProductGridSkeleton count={SKELETON_CARDS} label="Loading products" />
        </>
      ) : isError ? (
        <LoadError
          title="We couldn't load the products."
          error={error}
          onRetry={() => refetch()}
          retrying={isFetching}
        />
      ) : (
        <>
          <CategoryFilter categories={categoriesOf(products)} selected={category} onSelect={setCategory} />
          <ProductCatalog products={products} category={category} />
        </>
      )}
    </div>
  );
}

import { Link, useLocation, useSearch } from 'wouter';
import { Seo } from '@/components/seo/seo';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { useProducts } from '@/features/catalogue/api/get-products';
import { CategoryFilter } from '@/features/catalogue/components/category-filter';
import { ProductCatalog } from '@/features/catalogue/components/product-catalog';
import { ProductGridSkeleton } from '@/features/catalogue/components/product-grid';
import {
  ALL_CATEGORIES,
  CATEGORY_PARAM,
  categoriesOf,
  productsUrl,
  SALE_PARAM,
} from '@/features/catalogue/utils/categories';
import { saleOf } from '@/lib/pricing';
import { breadcrumbList } from '@/lib/structured-data';

/** 8 placeholder cards while the catalogue loads. */
const SKELETON_CARDS = 8;
/** 'All' plus the usual number of categories, so the filter row keeps its height when the real one arrives. */
const SKELETON_FILTERS = 5;

const CRUMBS = [
  { name: 'Home', path: '/' },
  { name: 'Products', path: '/products' },
];

const SALE_SEO = {
  title: 'Products on Sale',
  description:
    'Genuine software licenses on sale at up to 50% off: a one-time payment, delivered by email within 15-30 minutes.',
};

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
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const saleOnly = search.has(SALE_PARAM);
  const category = search.get(CATEGORY_PARAM) || ALL_CATEGORIES;
  const listed = saleOnly ? products?.filter((product) => saleOf(product)) : products;

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 sm:py-10">
      <Seo
        {...(saleOnly && category === ALL_CATEGORIES ? SALE_SEO : seoFor(category))}
        structuredData={[breadcrumbList(CRUMBS)]}
      />
      <Breadcrumb items={[{ name: 'Home', href: '/' }, { name: 'Products' }]} />
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">All Products</h1>
        <p className="text-muted-foreground">
          Genuine lifetime licenses for a one-time payment, delivered to your inbox within 15-30 minutes.
        </p>
        {saleOnly && (
          <p className="text-sm">
            <span className="font-medium">Showing products on sale.</span>{' '}
            <Link
              href="/products"
              className="rounded-sm font-medium text-primary underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-primary"
            >
              Show all products
            </Link>
          </p>
        )}
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
          <CategoryFilter
            categories={categoriesOf(listed ?? [])}
            selected={category}
            saleOnly={saleOnly}
            onSelect={(chosen) => navigate(productsUrl(chosen, saleOnly), { replace: true })}
          />
          <ProductCatalog products={listed ?? []} category={category} />
        </>
      )}
    </div>
  );
}

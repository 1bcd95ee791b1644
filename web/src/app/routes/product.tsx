import type { Product } from '@licensestore/domain';
import { useParams } from 'wouter';
import { Seo } from '@/components/seo/seo';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { LoadError } from '@/components/ui/load-error';
import { cart } from '@/features/cart/api/use-cart';
import { useProduct } from '@/features/catalogue/api/get-product';
import { ProductDetailSkeleton } from '@/features/catalogue/components/product-detail-skeleton';
import { ProductDetails } from '@/features/catalogue/components/product-details';
import { ProductNotFound } from '@/features/catalogue/components/product-not-found';
import { productFaq } from '@/features/catalogue/data/product-faq';
import { isNotFound } from '@/lib/api';
import { breadcrumbList, faqPage, productData } from '@/lib/structured-data';
import { toast } from '@/lib/toast';

function addToCart(product: Product) {
  cart.add(product);
  toast({ title: 'Added to cart', description: `${product.name} has been added to your cart.` });
}

/** Search results show about 155 characters of a description; a longer one is cut at a word with an ellipsis. */
function metaDescription(description: string): string {
  if (description.length <= 155) return description;
  const cut = description.slice(0, 152);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > 0 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.:;]+$/, '')}...`;
}

/** The product page's metadata, breadcrumbs and body; the FAQ is the same in the accordion and in its JSON-LD. */
function LoadedProduct({ product }: { product: Product }) {
  const faq = productFaq(product);
  return (
    <>
      <Seo
        title={product.name}
        description={metaDescription(product.description)}
        structuredData={[
          breadcrumbList([
            { name: 'Home', path: '/' },
            { name: 'Products', path: '/products' },
            { name: product.name, path: `/product/${product.id}` },
          ]),
          productData(product),
          faqPage(faq),
        ]}
      />
      <Breadcrumb
        items={[{ name: 'Home', href: '/' }, { name: 'Products', href: '/products' }, { name: product.name }]}
      />
      <ProductDetails product={product} faq={faq} onAddToCart={() => addToCart(product)} />
    </>
  );
}

export default function ProductRoute() {
  const { id = '' } = useParams<{ id: string }>();
  const { data: product, isPending, isError, error, refetch, isFetching } = useProduct(id);
  const notFound = (isError && isNotFound(error)) || product === null;

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 sm:py-10">
      {product ? (
        <LoadedProduct product={product} />
      ) : notFound ? (
        <>
          <Seo
            title="Product Not Found"
            description="The product you're looking for doesn't exist."
            noindex
          />
          <ProductNotFound />
        </>
      ) : isPending ? (
        <ProductDetailSkeleton />
      ) : (
        <LoadError
          title="We couldn't load this product."
          error={error ?? new Error('Unknown error')}
          onRetry={() => refetch()}
          retrying={isFetching}
        />
      )}
    </div>
  );
}

import type { Product } from '@licensestore/domain';
import type { FaqEntry } from '@/lib/structured-data';
import { WhatYouReceive, WhyBuyHere } from './product-extras';
import { ProductFaq } from './product-faq';
import { ProductSummary } from './product-summary';

/** The box art is square (600 × 600); the size attributes reserve its box before it loads. */
const IMAGE_SIZE = 600;

/** A loaded product page below the breadcrumbs. Adding to the cart is the caller's: the cart is another feature. */
export function ProductDetails({
  product,
  faq,
  onAddToCart,
}: {
  product: Product;
  faq: FaqEntry[];
  onAddToCart: () => void;
}) {
  return (
    <div className="flex flex-col gap-12 lg:gap-16">
      <div className="grid gap-8 lg:grid-cols-2 lg:gap-12">
        <div className="lg:sticky lg:top-24 lg:self-start">
          <img
            src={product.imageUrl}
            alt={product.name}
            width={IMAGE_SIZE}
            height={IMAGE_SIZE}
            fetchPriority="high"
            className="aspect-square w-full rounded-xl border border-border bg-muted object-cover dark:bg-transparent"
          />
        </div>
        <ProductSummary product={product} onAddToCart={onAddToCart} />
      </div>
      <div className="grid gap-12 lg:grid-cols-3">
        <div className="flex flex-col gap-12 lg:col-span-2">
          <section aria-labelledby="description-heading" className="flex flex-col gap-3">
            <h2 id="description-heading" className="text-2xl font-bold tracking-tight">
              Product Description
            </h2>
            <p className="leading-relaxed whitespace-pre-line text-muted-foreground">{product.description}</p>
          </section>
          <WhyBuyHere />
          <ProductFaq entries={faq} />
        </div>
        <aside className="lg:sticky lg:top-24 lg:self-start">
          <WhatYouReceive />
        </aside>
      </div>
    </div>
  );
}

import { Tag } from 'lucide-react';
import { Link } from 'wouter';

export function PromoBanner() {
  return (
    <aside aria-label="Limited time offer" className="bg-primary text-primary-foreground">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-center gap-x-3 gap-y-1 px-4 py-2.5 text-center text-sm">
        <span className="inline-flex items-center gap-1.5 font-bold tracking-wide uppercase">
          <Tag aria-hidden="true" className="size-4" />
          Limited Time Offer
        </span>
        <span>Save up to 50% on office products</span>
        <Link
          href="/products?sale"
          className="rounded-sm font-semibold underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current"
        >
          Shop the sale
        </Link>
      </div>
    </aside>
  );
}

import { ArrowLeft, PackageX } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';

export function ProductNotFound() {
  return (
    <div className="mx-auto my-8 flex w-full max-w-xl flex-col items-center gap-4 rounded-lg border border-border bg-card px-6 py-16 text-center text-card-foreground sm:my-16">
      <PackageX aria-hidden="true" className="size-12 text-muted-foreground" />
      <h1 className="text-2xl font-bold tracking-tight">Product Not Found</h1>
      <p className="text-muted-foreground">The product you're looking for doesn't exist.</p>
      <Link href="/products" className={buttonClasses('primary')}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to Products
      </Link>
    </div>
  );
}

import { SearchX } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';

export function OrderNotFound() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-border bg-card px-6 py-16 text-center">
      <SearchX aria-hidden="true" className="size-12 text-muted-foreground" />
      <h1 className="text-2xl font-bold">Order Not Found</h1>
      <p className="text-muted-foreground">The order you're looking for doesn't exist.</p>
      <Link href="/" className={buttonClasses('primary', 'mt-2')}>
        Back to Home
      </Link>
    </div>
  );
}

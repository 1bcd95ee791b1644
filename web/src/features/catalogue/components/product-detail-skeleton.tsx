import { Skeleton } from '@/components/ui/skeleton';

/** The product page's layout in placeholders, so nothing jumps when the product arrives. */
export function ProductDetailSkeleton() {
  return (
    <div role="status" className="grid gap-8 lg:grid-cols-2 lg:gap-12">
      <span className="sr-only">Loading product</span>
      <Skeleton className="aspect-square w-full rounded-xl" />
      <div className="flex flex-col gap-5">
        <Skeleton className="h-6 w-32 rounded-full" />
        <Skeleton className="h-10 w-4/5" />
        <Skeleton className="h-5 w-48" />
        <div className="flex flex-col gap-2">
          {['w-3/4', 'w-2/3', 'w-1/2', 'w-3/5', 'w-4/5'].map((width) => (
            <Skeleton key={width} className={`h-5 ${width}`} />
          ))}
        </div>
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    </div>
  );
}

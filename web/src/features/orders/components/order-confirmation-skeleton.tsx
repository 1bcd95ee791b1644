import { Skeleton } from '@/components/ui/skeleton';

/** The confirmation's shape while it loads, so nothing jumps when it arrives. */
export function OrderConfirmationSkeleton() {
  return (
    <div role="status" aria-label="Loading your order" className="grid gap-6">
      <div className="flex flex-col items-center gap-3">
        <Skeleton className="size-16 rounded-full" />
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-5 w-72" />
      </div>
      <Skeleton className="h-40 w-full" />
      <Skeleton className="h-56 w-full" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}

import type { LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

/** One headline figure with a line of context under it. */
export function StatCard({
  title,
  value,
  detail,
  icon: Icon,
}: {
  title: string;
  value: string;
  detail: string;
  icon: LucideIcon;
}) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId} className="flex flex-col gap-2 p-4 sm:p-6">
      <div className="flex items-center justify-between gap-2">
        <h2 id={titleId} className="text-sm font-medium text-muted-foreground">
          {title}
        </h2>
        <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
      </div>
      <p className="text-xl font-bold break-words tabular-nums sm:text-2xl">{value}</p>
      <p className="text-xs text-muted-foreground">{detail}</p>
    </Card>
  );
}

export function StatCardSkeleton() {
  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-6">
      <Skeleton className="h-4 w-24" />
      <Skeleton className="h-7 w-16" />
      <Skeleton className="h-3 w-28" />
    </Card>
  );
}

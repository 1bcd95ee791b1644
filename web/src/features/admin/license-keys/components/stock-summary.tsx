import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { useStock } from '../api/get-license-keys';

/**
 * Available keys per product, above the table: what runs out next is visible without paging through the keys.
 * Products low on keys are marked, and so are paid orders waiting for one.
 */
export function StockSummary() {
  const { data: stock, isPending, error } = useStock();
  if (error) return null; // The table below shows the load error; the summary is a convenience.
  return (
    <section aria-labelledby="stock-heading" className="grid gap-3">
      <h2 id="stock-heading" className="text-lg font-semibold">
        Available keys per product
      </h2>
      {isPending ? (
        <Skeleton className="h-16" />
      ) : stock.length === 0 ? (
        <p className="text-sm text-muted-foreground">No products yet.</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
          {stock.map((product) => (
            <li
              key={product.productId}
              className={cn(
                'flex items-center justify-between gap-3 rounded-md border border-border bg-card px-3 py-2 text-sm',
                product.lowStock && 'border-l-4 border-l-warning',
              )}
            >
              <span className="min-w-0 truncate" title={product.productName}>
                {product.productName}
              </span>
              <span className="shrink-0 text-right tabular-nums">
                <span className="font-semibold">{product.available}</span> available
                {product.lowStock && <span className="sr-only"> (low stock)</span>}
                {product.waiting > 0 && (
                  <span className="block text-xs text-destructive">{product.waiting} waiting</span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

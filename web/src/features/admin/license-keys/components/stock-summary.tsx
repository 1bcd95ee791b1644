import type { StockView } from '@licensestore/contract/license-keys';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { useStock } from '../api/get-license-keys';

/** What runs out first comes first. */
const lowestFirst = (stock: StockView[]) =>
  [...stock].sort((a, b) => a.available - b.available || a.productName.localeCompare(b.productName));

/**
 * Available keys per product, above the table, fewest first: what runs out next is visible without paging through
 * the keys.
 * Products low on keys are marked, and so are paid orders waiting for one.
 */
export function StockSummary() {
  const { data: stock, isPending, error } = useStock();
  if (error) return null; // The table below shows the load error; the summary is a convenience.
  return (
    <section aria-labelledby="stock-heading" className="grid grid-cols-1 gap-3">
      <h2 id="stock-heading" className="text-lg font-semibold">
        Available keys per product
      </h2>
      {isPending ? (
        <Skeleton className="h-16" />
      ) : stock.length === 0 ? (
        <p className="text-sm text-muted-foreground">No products yet.</p>
      ) : (
        // On a phone the 18 demo products would push the keys off the first screens: the list scrolls (keyboard too).
        <ul
          aria-labelledby="stock-heading"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
          tabIndex={0}
          className="grid max-h-64 grid-cols-1 gap-2 overflow-y-auto rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary sm:max-h-none sm:grid-cols-2 sm:overflow-visible xl:grid-cols-3"
        >
          {lowestFirst(stock).map((product) => (
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

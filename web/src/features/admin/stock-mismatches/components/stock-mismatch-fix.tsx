import type { StockMismatch } from '@licensestore/contract/license-keys';
import { TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useReadOnly } from '../../auth/api/admin-status';
import { useFixStock } from '../api/stock-mismatches';

const keysAvailable = (count: number) =>
  count === 0 ? 'no keys available' : `${count} ${count === 1 ? 'key' : 'keys'} available`;

/** What the store shows against what the inventory holds, in one phrase. */
export const mismatchText = ({ inStock, available }: StockMismatch) =>
  `Shown ${inStock ? 'in stock' : 'out of stock'}, ${keysAvailable(available)}`;

/**
 * One product's mismatch and, for admins, the one-click fix: the In Stock flag set to what the inventory says.
 * Auditors read the mismatch only.
 */
export function StockMismatchFix({ mismatch }: { mismatch: StockMismatch }) {
  const readOnly = useReadOnly();
  const fix = useFixStock();
  const inStock = !mismatch.inStock;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {/* The icon carries the warning's colour: red text this small is too faint on a dark card. */}
      <span className="inline-flex items-center gap-1 text-xs font-medium">
        <TriangleAlert aria-hidden="true" className="size-3.5 shrink-0 text-destructive" />
        {mismatchText(mismatch)}
      </span>
      {!readOnly && (
        <Button
          variant="outline"
          className="h-8 px-2.5 text-xs whitespace-nowrap"
          aria-label={`${inStock ? 'Mark in stock' : 'Mark out of stock'}: ${mismatch.productName}`}
          disabled={fix.isPending}
          onClick={() => fix.mutate({ productId: mismatch.productId, inStock })}
        >
          {inStock ? 'Mark in stock' : 'Mark out of stock'}
        </Button>
      )}
    </div>
  );
}

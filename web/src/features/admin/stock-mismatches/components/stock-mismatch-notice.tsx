import { useId } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useStockMismatches } from '../api/stock-mismatches';
import { StockMismatchFix } from './stock-mismatch-fix';

/**
 * The dashboard's notice of products the store shows in stock with no key to deliver, or out of stock while keys
 * wait to be sold; nothing when every product's stock tells the truth (or while it loads).
 */
export function StockMismatchNotice() {
  const { data: mismatches } = useStockMismatches();
  const titleId = useId();
  if (!mismatches || mismatches.length === 0) return null;
  return (
    <Card aria-labelledby={titleId} className="border-destructive">
      <CardHeader>
        <CardTitle id={titleId}>Stock shown wrongly</CardTitle>
        <p className="text-sm text-muted-foreground">
          {mismatches.length === 1 ? 'One product is' : `${mismatches.length} products are`} shown in the
          store as the opposite of what the license key inventory holds.
        </p>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-border" aria-label="Products whose stock is shown wrongly">
          {mismatches.map((mismatch) => (
            <li
              key={mismatch.productId}
              className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between sm:gap-3"
            >
              <span className="min-w-0 truncate text-sm font-medium">{mismatch.productName}</span>
              <StockMismatchFix mismatch={mismatch} />
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

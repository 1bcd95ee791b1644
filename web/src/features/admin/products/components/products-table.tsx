import type { Product } from '@licensestore/shared';
import { Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ProductThumbnail } from '@/components/ui/product-thumbnail';
import { QueryTable } from '@/components/ui/query-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { useProducts } from '@/features/catalogue/api/get-products';
import { type StockMismatch, useStockMismatches } from '../../stock-mismatches/api/stock-mismatches';
import { StockMismatchFix } from '../../stock-mismatches/components/stock-mismatch-fix';
import { ProductPrice } from './product-price';

const COLUMNS = ['Product', 'Category', 'Platform', 'Price', 'Status', 'Actions'];
/** An auditor's table: the same without the Actions column they could not use. */
const READ_ONLY_COLUMNS = COLUMNS.filter((column) => column !== 'Actions');

interface RowActions {
  onEdit: (product: Product) => void;
  onDelete: (product: Product) => void;
}

function ProductRow({
  product,
  actions,
  mismatch,
}: {
  product: Product;
  actions: RowActions | null;
  mismatch: StockMismatch | undefined;
}) {
  return (
    <TableRow>
      <TableCell>
        <div className="flex min-w-56 items-center gap-3">
          <ProductThumbnail src={product.imageUrl} />
          <div className="flex flex-col items-start gap-1">
            <span className="font-medium">{product.name}</span>
            {product.featured && <Badge variant="primary">Featured</Badge>}
          </div>
        </div>
      </TableCell>
      <TableCell className="whitespace-nowrap">{product.category}</TableCell>
      <TableCell className="whitespace-nowrap">{product.platform}</TableCell>
      <TableCell className="whitespace-nowrap">
        <ProductPrice product={product} />
      </TableCell>
      <TableCell>
        <div className="flex min-w-44 flex-col items-start gap-1.5">
          <Badge variant={product.inStock ? 'secondary' : 'outline'} className="whitespace-nowrap">
            {product.inStock ? 'In Stock' : 'Out of Stock'}
          </Badge>
          {mismatch && <StockMismatchFix mismatch={mismatch} />}
        </div>
      </TableCell>
      {actions && (
        <TableCell>
          <div className="flex gap-1">
            <Button
              variant="ghost"
              className="size-9 p-0"
              aria-label={`Edit ${product.name}`}
              onClick={() => actions.onEdit(product)}
            >
              <Pencil aria-hidden="true" className="size-4" />
            </Button>
            <Button
              variant="ghost"
              className="size-9 p-0 text-destructive hover:text-destructive"
              aria-label={`Delete ${product.name}`}
              onClick={() => actions.onDelete(product)}
            >
              <Trash2 aria-hidden="true" className="size-4" />
            </Button>
          </div>
        </TableCell>
      )}
    </TableRow>
  );
}

/**
 * The whole catalogue with edit and delete per product (null: read-only); a product whose stock is shown wrongly
 * says so under its status, with the fix.
 */
export function ProductsTable({ actions }: { actions: RowActions | null }) {
  const { data: mismatches } = useStockMismatches();
  const mismatchOf = new Map(mismatches?.map((mismatch) => [mismatch.productId, mismatch]));
  return (
    <QueryTable
      label="Products"
      columns={actions ? COLUMNS : READ_ONLY_COLUMNS}
      query={useProducts()}
      errorTitle="The products could not be loaded"
      emptyText="No products yet. Add your first product to get started."
      renderRow={(product) => (
        <ProductRow
          key={product.id}
          product={product}
          actions={actions}
          mismatch={mismatchOf.get(product.id)}
        />
      )}
      skeletonCell={(column) => (column === 'Product' ? 'h-12 w-56' : 'h-5 w-full min-w-16')}
    />
  );
}

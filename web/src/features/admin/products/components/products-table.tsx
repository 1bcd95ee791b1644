import type { StockMismatch } from '@licensestore/contract/license-keys';
import type { Product } from '@licensestore/domain';
import { Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import type { Columns } from '@/components/ui/data-table';
import { IconButton } from '@/components/ui/icon-button';
import { ProductThumbnail } from '@/components/ui/product-thumbnail';
import { QueryTable } from '@/components/ui/query-table';
import { useProducts } from '@/features/catalogue/api/get-products';
import { useStockMismatches } from '../../stock-mismatches/api/stock-mismatches';
import { StockMismatchFix } from '../../stock-mismatches/components/stock-mismatch-fix';
import { ProductPrice } from './product-price';

interface RowActions {
  onEdit: (product: Product) => void;
  onDelete: (product: Product) => void;
}

/** The list's columns; a product whose stock is shown wrongly says so under its status, with the fix. */
const columnsWith = (mismatchOf: ReadonlyMap<string, StockMismatch>): Columns<Product> => [
  {
    header: 'Product',
    skeleton: 'h-12 w-56',
    cell: (product) => (
      <div className="flex min-w-56 items-center gap-3">
        <ProductThumbnail src={product.imageUrl} />
        <div className="flex flex-col items-start gap-1">
          <span className="font-medium">{product.name}</span>
          {product.featured && <Badge variant="primary">Featured</Badge>}
        </div>
      </div>
    ),
  },
  { header: 'Category', className: 'whitespace-nowrap', cell: (product) => product.category },
  { header: 'Platform', className: 'whitespace-nowrap', cell: (product) => product.platform },
  { header: 'Price', className: 'whitespace-nowrap', cell: (product) => <ProductPrice product={product} /> },
  {
    header: 'Status',
    cell: (product) => {
      const mismatch = mismatchOf.get(product.id);
      return (
        <div className="flex min-w-44 flex-col items-start gap-1.5">
          <Badge variant={product.inStock ? 'secondary' : 'outline'} className="whitespace-nowrap">
            {product.inStock ? 'In Stock' : 'Out of Stock'}
          </Badge>
          {mismatch && <StockMismatchFix mismatch={mismatch} />}
        </div>
      );
    },
  },
];

function ProductButtons({ product, actions }: { product: Product; actions: RowActions }) {
  return (
    <>
      <IconButton icon={Pencil} label={`Edit ${product.name}`} onClick={() => actions.onEdit(product)} />
      <IconButton
        icon={Trash2}
        tone="destructive"
        label={`Delete ${product.name}`}
        onClick={() => actions.onDelete(product)}
      />
    </>
  );
}

/** The whole catalogue with edit and delete per product (null: read-only), and the stock shown wrongly. */
export function ProductsTable({ actions }: { actions: RowActions | null }) {
  const { data: mismatches } = useStockMismatches();
  const mismatchOf = new Map(mismatches?.map((mismatch) => [mismatch.productId, mismatch]));
  return (
    <QueryTable
      label="Products"
      columns={columnsWith(mismatchOf)}
      actions={actions ? (product) => <ProductButtons product={product} actions={actions} /> : undefined}
      query={useProducts()}
      errorTitle="The products could not be loaded"
      emptyText="No products yet. Add your first product to get started."
      rowKey={(product) => product.id}
    />
  );
}

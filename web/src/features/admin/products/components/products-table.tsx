import type { Product } from '@licensestore/shared';
import { Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useProducts } from '@/features/catalogue/api/get-products';
import { ProductPrice } from './product-price';

const COLUMNS = ['Product', 'Category', 'Platform', 'Price', 'Status', 'Actions'];
const SKELETON_ROWS = 5;

interface RowActions {
  onEdit: (product: Product) => void;
  onDelete: (product: Product) => void;
}

function ProductRow({ product, onEdit, onDelete }: { product: Product } & RowActions) {
  return (
    <TableRow>
      <TableCell>
        <div className="flex min-w-56 items-center gap-3">
          {/* The name beside it says what the picture shows. */}
          <img
            src={product.imageUrl}
            alt=""
            width={48}
            height={48}
            loading="lazy"
            className="size-12 shrink-0 rounded-md border border-border bg-muted object-cover"
          />
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
        <Badge variant={product.inStock ? 'secondary' : 'outline'} className="whitespace-nowrap">
          {product.inStock ? 'In Stock' : 'Out of Stock'}
        </Badge>
      </TableCell>
      <TableCell>
        <div className="flex gap-1">
          <Button
            variant="ghost"
            className="size-9 p-0"
            aria-label={`Edit ${product.name}`}
            onClick={() => onEdit(product)}
          >
            <Pencil aria-hidden="true" className="size-4" />
          </Button>
          <Button
            variant="ghost"
            className="size-9 p-0 text-destructive hover:text-destructive"
            aria-label={`Delete ${product.name}`}
            onClick={() => onDelete(product)}
          >
            <Trash2 aria-hidden="true" className="size-4" />
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}

function SkeletonRows() {
  return Array.from({ length: SKELETON_ROWS }, (_, row) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart
    <TableRow key={row}>
      {COLUMNS.map((column) => (
        <TableCell key={column}>
          <Skeleton className={column === 'Product' ? 'h-12 w-56' : 'h-5 w-full min-w-16'} />
        </TableCell>
      ))}
    </TableRow>
  ));
}

/** The whole catalogue with edit and delete per product (spec section 2, Admin Products). */
export function ProductsTable(actions: RowActions) {
  const { data: products, error, isPending, refetch, isRefetching } = useProducts();
  if (error) {
    return (
      <LoadError
        title="The products could not be loaded"
        error={error}
        onRetry={() => refetch()}
        retrying={isRefetching}
      />
    );
  }
  return (
    <Table aria-label="Products" aria-busy={isPending}>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {COLUMNS.map((column) => (
            <TableHead key={column}>{column}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {isPending ? (
          <SkeletonRows />
        ) : products.length === 0 ? (
          <TableRow className="hover:bg-transparent">
            <TableCell colSpan={COLUMNS.length} className="py-10 text-center text-muted-foreground">
              No products yet. Add your first product to get started.
            </TableCell>
          </TableRow>
        ) : (
          products.map((product) => <ProductRow key={product.id} product={product} {...actions} />)
        )}
      </TableBody>
    </Table>
  );
}

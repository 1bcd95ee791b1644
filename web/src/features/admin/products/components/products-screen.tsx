import type { Product } from '@licensestore/domain';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useReadOnly } from '../../auth/api/admin-status';
import { ScreenSubtitle } from '../../components/screen-subtitle';
import { useDeleteProduct } from '../api/product-mutations';
import { ProductFormDialog } from './product-form-dialog';
import { ProductsTable } from './products-table';

/** Admin Products: the heading, the table, and the add, edit and delete dialogs. */
export function ProductsScreen() {
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Product | null>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const remove = useDeleteProduct();
  const readOnly = useReadOnly();

  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Products</h1>
          <ScreenSubtitle
            admin="Manage your product catalog"
            readOnly="Browse the product catalog (read-only)"
          />
        </div>
        {!readOnly && (
          <Button onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" className="size-4" />
            Add Product
          </Button>
        )}
      </div>
      <ProductsTable actions={readOnly ? null : { onEdit: setEditing, onDelete: setDeleting }} />
      <ProductFormDialog
        open={adding || editing !== null}
        product={editing}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting ? `Delete ${deleting.name}?` : 'Delete product?'}
        description="Are you sure you want to delete this product?"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}

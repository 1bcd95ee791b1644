import type { Product } from '@licensestore/domain';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { isStale } from '@/lib/api';
import { useAdminProduct } from '../api/get-admin-product';
import { useCreateProduct, useUpdateProduct } from '../api/product-mutations';
import { EMPTY_PRODUCT_FORM, formValuesOf } from '../utils/product-form-values';
import { ProductForm } from './product-form';

function AddProductForm({ onClose }: { onClose: () => void }) {
  const create = useCreateProduct();
  return (
    <ProductForm
      initial={EMPTY_PRODUCT_FORM}
      submitLabel="Create Product"
      busyLabel="Creating..."
      saving={create.isPending}
      serverError={create.error}
      onCancel={onClose}
      onSubmit={(payload) => create.mutate(payload, { onSuccess: onClose })}
    />
  );
}

/**
 * Edits the product as it is now (loaded when the dialog opens, not as the list shows it) and saves with the
 * version it loaded: when someone else saved in between, the save is refused and says so, and Reload starts the
 * form again from their changes, so no one's edit is overwritten unseen.
 */
function EditProductForm({ id, onClose }: { id: string; onClose: () => void }) {
  const loaded = useAdminProduct(id);
  const update = useUpdateProduct();
  if (loaded.error) {
    return (
      <LoadError
        title="The product could not be loaded"
        error={loaded.error}
        onRetry={() => loaded.refetch()}
        retrying={loaded.isRefetching}
      />
    );
  }
  if (!loaded.data) return <Skeleton className="h-96" />;
  const { value: product, etag } = loaded.data;
  const stale = isStale(update.error);
  return (
    <>
      {stale && (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-destructive p-3 text-sm text-destructive"
        >
          <p>
            This product was changed by someone else; reload to see the changes (your edits here are not
            saved).
          </p>
          <Button
            variant="outline"
            disabled={loaded.isRefetching}
            onClick={async () => {
              await loaded.refetch();
              update.reset();
            }}
          >
            {loaded.isRefetching ? 'Reloading...' : 'Reload'}
          </Button>
        </div>
      )}
      <ProductForm
        // A new version starts the form again from its values.
        key={etag ?? id}
        initial={formValuesOf(product)}
        submitLabel="Update Product"
        busyLabel="Updating..."
        saving={update.isPending}
        serverError={stale ? null : update.error}
        onCancel={onClose}
        onSubmit={(payload) => update.mutate({ id, payload, etag }, { onSuccess: onClose })}
      />
    </>
  );
}

/**
 * 'Add New Product' when there is no product to edit, else 'Edit Product'. Each opening starts a form of its own,
 * so opening another product never starts from the last one's edits.
 */
export function ProductFormDialog({
  open,
  product,
  onClose,
}: {
  open: boolean;
  product: Product | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={product ? 'Edit Product' : 'Add New Product'}
      description={product ? 'Update product details' : 'Create a new product in your catalog'}
      className="max-w-2xl"
    >
      {product ? (
        <EditProductForm key={product.id} id={product.id} onClose={onClose} />
      ) : (
        <AddProductForm onClose={onClose} />
      )}
    </Dialog>
  );
}

import type { Product } from '@licensestore/shared';
import { Dialog } from '@/components/ui/dialog';
import { useCreateProduct, useUpdateProduct } from '../api/product-mutations';
import { EMPTY_PRODUCT_FORM, formValuesOf } from '../utils/product-form-values';
import { ProductForm } from './product-form';

/**
 * 'Add New Product' when there is no product to edit, else 'Edit Product'. The form is keyed by
 * the product, so opening another one starts from its values, never from the last one's edits.
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
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const saving = product ? update : create;

  const close = () => {
    create.reset();
    update.reset();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && close()}
      title={product ? 'Edit Product' : 'Add New Product'}
      description={product ? 'Update product details' : 'Create a new product in your catalog'}
      className="max-w-2xl"
    >
      <ProductForm
        key={product?.id ?? 'new'}
        initial={product ? formValuesOf(product) : EMPTY_PRODUCT_FORM}
        submitLabel={product ? 'Update Product' : 'Create Product'}
        busyLabel={product ? 'Updating...' : 'Creating...'}
        saving={saving.isPending}
        serverError={saving.error}
        onCancel={close}
        onSubmit={(payload) =>
          product
            ? update.mutate({ id: product.id, payload }, { onSuccess: close })
            : create.mutate(payload, { onSuccess: close })
        }
      />
    </Dialog>
  );
}

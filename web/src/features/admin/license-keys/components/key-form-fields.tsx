import type { Product } from '@licensestore/domain';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { productOptions } from './product-options';

/** The product the keys are for, from the catalogue by name; it waits, disabled, while the catalogue loads. */
export function ProductField({
  id,
  products,
  value,
  onValueChange,
  problem,
}: {
  id: string;
  products: { data: Product[] | undefined; isPending: boolean };
  value: string | undefined;
  onValueChange: (productId: string) => void;
  problem?: string;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Product *</Label>
      <Select
        id={id}
        value={value}
        onValueChange={onValueChange}
        options={productOptions(products.data)}
        placeholder={products.isPending ? 'Loading products...' : 'Select a product'}
        disabled={products.isPending}
      />
      {problem && <p className="text-sm text-destructive">{problem}</p>}
    </div>
  );
}

/** The format the chosen product's keys must have, and what its Xs stand for. */
export function KeyFormatHint({
  id,
  keyFormat,
  className,
}: {
  id: string;
  keyFormat: string;
  className: string;
}) {
  return (
    <p id={id} className={className}>
      Format: <code className="font-mono whitespace-nowrap">{keyFormat}</code> (X: an upper-case letter or a
      digit)
    </p>
  );
}

import type { Product } from '@licensestore/shared';
import type { SelectOption } from '@/components/ui/select';

/** The catalogue as select options, by name (names repeat rarely; the id keeps them apart). */
export const productOptions = (products: Product[] | undefined): SelectOption[] =>
  (products ?? [])
    .map((product) => ({ value: product.id, label: product.name }))
    .sort((a, b) => a.label.localeCompare(b.label));

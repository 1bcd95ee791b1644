import type { Product } from '@licensestore/domain';
import { DEFAULT_KEY_FORMAT, keyFormatOf } from '@licensestore/domain/catalogue/key-format';
import type { SelectOption } from '@/components/ui/select';

/** The catalogue as select options, by name (names repeat rarely; the id keeps them apart). */
export const productOptions = (products: Product[] | undefined): SelectOption[] =>
  (products ?? [])
    .map((product) => ({ value: product.id, label: product.name }))
    .sort((a, b) => a.label.localeCompare(b.label));

/** The format the chosen product's keys must have (the default until one is chosen). */
export const keyFormatFor = (products: Product[] | undefined, productId: string | undefined): string => {
  const product = products?.find((candidate) => candidate.id === productId);
  return product ? keyFormatOf(product) : DEFAULT_KEY_FORMAT;
};

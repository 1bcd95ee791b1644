import type { Product } from '@licensestore/domain';
import {
  downloadUrlProblem,
  INSTALLATION_NOTES_MAX_LENGTH,
} from '@licensestore/domain/catalogue/download-url';
import { keyFormatProblem } from '@licensestore/domain/catalogue/key-format';

/** What the form's inputs hold: text as typed, prices included (number inputs report strings). */
export interface ProductFormValues {
  name: string;
  category: string;
  description: string;
  regularPrice: string;
  salePrice: string;
  platform: string;
  imageUrl: string;
  downloadUrl: string;
  installationNotes: string;
  keyFormat: string;
  featured: boolean;
  inStock: boolean;
}

/** The body of POST /api/products and PATCH /api/products/{id}. */
export type ProductPayload = Omit<Product, 'id'>;

export type ProductFormProblems = Partial<Record<keyof ProductFormValues, string>>;

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  name: '',
  category: '',
  description: '',
  regularPrice: '',
  salePrice: '',
  platform: '',
  imageUrl: '',
  downloadUrl: '',
  installationNotes: '',
  keyFormat: '',
  featured: false,
  inStock: true,
};

export const formValuesOf = (product: Product): ProductFormValues => ({
  name: product.name,
  category: product.category,
  description: product.description,
  regularPrice: product.regularPrice,
  salePrice: product.salePrice ?? '',
  platform: product.platform,
  imageUrl: product.imageUrl,
  downloadUrl: product.downloadUrl ?? '',
  installationNotes: product.installationNotes ?? '',
  keyFormat: product.keyFormat ?? '',
  featured: product.featured,
  inStock: product.inStock,
});

/** Dollars and at most two cents digits, as the API accepts them. */
const AMOUNT = /^\d+(\.\d{1,2})?$/;

const REQUIRED: Array<[keyof ProductFormValues, string]> = [
  ['name', 'Product name is required'],
  ['category', 'Category is required'],
  ['description', 'Description is required'],
  ['regularPrice', 'Regular price is required'],
  ['platform', 'Platform is required'],
  ['imageUrl', 'Image URL is required'],
];

/** Name, category, description, regular price, platform and image URL are required. */
export function validateProductForm(values: ProductFormValues): ProductFormProblems {
  const problems: ProductFormProblems = {};
  for (const [field, message] of REQUIRED) {
    if (String(values[field]).trim() === '') problems[field] = message;
  }
  if (!problems.regularPrice && !AMOUNT.test(values.regularPrice.trim())) {
    problems.regularPrice = 'Enter a price like 19.99';
  }
  if (values.salePrice.trim() !== '' && !AMOUNT.test(values.salePrice.trim())) {
    problems.salePrice = 'Enter a price like 19.99, or leave it empty';
  }
  const downloadUrl = values.downloadUrl.trim();
  const urlProblem = downloadUrl === '' ? null : downloadUrlProblem(downloadUrl);
  if (urlProblem) problems.downloadUrl = `Download URL ${urlProblem}`;
  if (values.installationNotes.trim().length > INSTALLATION_NOTES_MAX_LENGTH) {
    problems.installationNotes = `Installation notes must be at most ${INSTALLATION_NOTES_MAX_LENGTH} characters`;
  }
  const keyFormat = values.keyFormat.trim();
  const formatProblem = keyFormat === '' ? null : keyFormatProblem(keyFormat);
  if (formatProblem) problems.keyFormat = `Key format ${formatProblem}`;
  return problems;
}

/** Prices travel as strings; an empty sale price, download URL, notes or key format is sent as null. */
export const productPayload = (values: ProductFormValues): ProductPayload => ({
  name: values.name.trim(),
  category: values.category.trim(),
  description: values.description.trim(),
  regularPrice: values.regularPrice.trim(),
  salePrice: values.salePrice.trim() === '' ? null : values.salePrice.trim(),
  platform: values.platform.trim(),
  imageUrl: values.imageUrl.trim(),
  downloadUrl: values.downloadUrl.trim() === '' ? null : values.downloadUrl.trim(),
  installationNotes: values.installationNotes.trim() === '' ? null : values.installationNotes.trim(),
  keyFormat: values.keyFormat.trim() === '' ? null : values.keyFormat.trim(),
  featured: values.featured,
  inStock: values.inStock,
});

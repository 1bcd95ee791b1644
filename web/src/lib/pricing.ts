import type { Product } from '@licensestore/domain';
import { toCents } from '@/lib/format';

export interface Sale {
  salePrice: string;
  regularPrice: string;
  /** Rounded (regular - sale) / regular, in percent. */
  percentOff: number;
}

/** On sale only when a sale price exists and is below the regular price. */
export function saleOf(product: Pick<Product, 'regularPrice' | 'salePrice'>): Sale | null {
  const { salePrice, regularPrice } = product;
  if (!salePrice) return null;
  const sale = toCents(salePrice);
  const regular = toCents(regularPrice);
  if (sale >= regular) return null;
  return { salePrice, regularPrice, percentOff: Math.round(((regular - sale) / regular) * 100) };
}

/** The price a shopper pays: the sale price when the product is on sale, else the regular one. */
export const priceToPay = (product: Pick<Product, 'regularPrice' | 'salePrice'>): string =>
  saleOf(product)?.salePrice ?? product.regularPrice;

import type { Product } from '@licensestore/domain';
import { toCents } from '@/lib/format';
import { priceToPay } from '@/lib/pricing';

/** One line of the cart as local storage keeps it: the price is a number of dollars. */
export interface CartLine {
  productId: string;
  productName: string;
  price: number;
  imageUrl: string;
  quantity: number;
}

/** Local storage key of the cart, so it outlives the page. */
export const CART_STORAGE_KEY = 'cart';
/** The server refuses more than 10 of one product in an order; the cart stops there too. */
export const MAX_QUANTITY = 10;

const isCartLine = (value: unknown): value is CartLine => {
  if (typeof value !== 'object' || value === null) return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.productId === 'string' &&
    typeof line.productName === 'string' &&
    typeof line.price === 'number' &&
    Number.isFinite(line.price) &&
    typeof line.imageUrl === 'string' &&
    Number.isInteger(line.quantity) &&
    (line.quantity as number) >= 1
  );
};

/** A cart edited by hand or written by an older version loses only the lines it cannot read. */
export function parseCart(text: string | null): CartLine[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value)
      ? value.filter(isCartLine).map((line) => ({ ...line, quantity: Math.min(line.quantity, MAX_QUANTITY) }))
      : [];
  } catch {
    return [];
  }
}

/** A cart line's price is a number of dollars. */
export const cartPrice = (product: Pick<Product, 'regularPrice' | 'salePrice'>): number =>
  toCents(priceToPay(product)) / 100;

export const addLine = (lines: CartLine[], product: Product): CartLine[] =>
  lines.some((line) => line.productId === product.id)
    ? lines.map((line) =>
        line.productId === product.id
          ? { ...line, quantity: Math.min(line.quantity + 1, MAX_QUANTITY) }
          : line,
      )
    : [
        ...lines,
        {
          productId: product.id,
          productName: product.name,
          price: cartPrice(product),
          imageUrl: product.imageUrl,
          quantity: 1,
        },
      ];

/** Quantities stay between 1 (the decrease button's floor) and MAX_QUANTITY. */
export const setLineQuantity = (lines: CartLine[], productId: string, quantity: number): CartLine[] =>
  lines.map((line) =>
    line.productId === productId
      ? { ...line, quantity: Math.min(Math.max(Math.trunc(quantity), 1), MAX_QUANTITY) }
      : line,
  );

export const removeLine = (lines: CartLine[], productId: string): CartLine[] =>
  lines.filter((line) => line.productId !== productId);

/** Sums in integer cents, so 3 × 19.99 is 59.97 and not 59.970000000000006. */
export const lineTotalCents = (line: CartLine): number => Math.round(line.price * 100) * line.quantity;
export const subtotalCents = (lines: CartLine[]): number =>
  lines.reduce((sum, line) => sum + lineTotalCents(line), 0);
export const itemCount = (lines: CartLine[]): number => lines.reduce((sum, line) => sum + line.quantity, 0);

import { AppError, ValidationError } from '../errors/index.js';
import { formatCents, toCents } from '../money/index.js';
import type { OrderLine } from './events.js';

/** Limits on one cart; they keep a single PayPal order within what a buyer of licenses plausibly wants. */
export const MAX_QUANTITY_PER_LINE = 10;
export const MAX_CART_LINES = 20;

export interface CartItem {
  productId: string;
  quantity: number;
}

/** What pricing needs to know about a product, as the catalogue holds it right now. */
export type CatalogueEntry =
  | {
      status: 'active';
      name: string;
      regularPrice: string;
      salePrice: string | null;
      inStock: boolean;
    }
  | { status: 'deleted'; name: string | null }
  | { status: 'unknown' };

/** A cart line priced by the server: the shape `CheckoutStarted` records. */
export type PricedLine = Omit<OrderLine, 'lineId'>;

export interface PricedCart {
  lines: PricedLine[];
  totalCents: number;
  total: string;
  currency: 'USD';
}

/** A product in the cart cannot be sold (unknown, deleted or out of stock): 422 with the product named. */
export class ProductUnavailableError extends AppError {
  constructor(message: string) {
    super(422, message);
  }
}

/** The sale price counts only when it is below the regular price. */
export function unitPriceCents(product: { regularPrice: string; salePrice: string | null }): number {
  const regular = toCents(product.regularPrice);
  if (product.salePrice === null) return regular;
  const sale = toCents(product.salePrice);
  return Math.min(sale, regular);
}

/** Merges duplicate product ids (first position wins) and enforces the per-line and per-cart limits. */
export function mergeCartItems(items: readonly CartItem[]): CartItem[] {
  const merged = new Map<string, number>();
  for (const item of items) merged.set(item.productId, (merged.get(item.productId) ?? 0) + item.quantity);
  if (merged.size === 0) throw new ValidationError('The cart is empty');
  if (merged.size > MAX_CART_LINES) {
    throw new ValidationError(`A cart holds at most ${MAX_CART_LINES} different products`);
  }
  for (const [productId, quantity] of merged) {
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY_PER_LINE) {
      throw new ValidationError(
        `Quantity of product ${productId} must be between 1 and ${MAX_QUANTITY_PER_LINE}, not ${quantity}`,
      );
    }
  }
  return [...merged].map(([productId, quantity]) => ({ productId, quantity }));
}

/**
 * Prices a cart from the catalogue alone, in integer cents: the client's prices are never read.
 * Every product must be active and in stock; the error names the first one that is not.
 */
export function priceCart(
  items: readonly CartItem[],
  lookup: (productId: string) => CatalogueEntry,
): PricedCart {
  const lines: PricedLine[] = [];
  let totalCents = 0;
  for (const { productId, quantity } of mergeCartItems(items)) {
    const product = lookup(productId);
    if (product.status === 'unknown') throw new ProductUnavailableError(`Unknown product ${productId}`);
    if (product.status === 'deleted') {
      throw new ProductUnavailableError(
        `${product.name ? `'${product.name}'` : `Product ${productId}`} is no longer sold`,
      );
    }
    if (!product.inStock) throw new ProductUnavailableError(`'${product.name}' is out of stock`);
    const unitCents = unitPriceCents(product);
    const lineCents = unitCents * quantity;
    totalCents += lineCents;
    lines.push({
      productId,
      productName: product.name,
      quantity,
      unitPrice: formatCents(unitCents),
      lineTotal: formatCents(lineCents),
    });
  }
  if (totalCents <= 0) throw new ValidationError('The cart total must be above zero');
  return { lines, totalCents, total: formatCents(totalCents), currency: 'USD' };
}

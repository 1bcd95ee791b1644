import { displayCents } from '@licensestore/domain/money/display';

/**
 * Integer cents of a decimal amount string ("19.99" → 1999). The same rule as toCents in @licensestore/shared,
 * repeated here because importing that module as a value pulls zod into the storefront bundle.
 */
export function toCents(amount: string): number {
  const [whole = '0', fraction = ''] = amount.trim().split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** Money as every screen shows it ("$2,027.87"): the store's one money formatter. */
export const formatCents = displayCents;

/** Prices travel as decimal strings ("19.99"). */
export const formatPrice = (amount: string): string => formatCents(toCents(amount));

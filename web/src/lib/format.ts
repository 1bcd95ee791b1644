/**
 * Integer cents of a decimal amount string ("19.99" → 1999). The same rule as toCents in @licensestore/shared,
 * repeated here because importing that module as a value pulls zod into the storefront bundle.
 */
export function toCents(amount: string): number {
  const [whole = '0', fraction = ''] = amount.trim().split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** Money is shown in USD with a $ prefix and two decimals. */
export const formatCents = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

/** Prices travel as decimal strings ("19.99"). */
export const formatPrice = (amount: string): string => formatCents(toCents(amount));

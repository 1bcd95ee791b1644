import { z } from 'zod';

/** Money travels as a decimal string with two places ("19.99") and is computed in integer cents. */
export const decimalAmount = z
  .string()
  .trim()
  .regex(/^\d{1,7}(\.\d{1,2})?$/, 'must be an amount like 19.99');

/**
 * A sum of many amounts (what a rule would have held over a year): its whole part is as long as it needs to be,
 * up to the cents a number holds exactly.
 */
export const decimalTotal = z
  .string()
  .trim()
  .regex(/^\d{1,13}(\.\d{1,2})?$/, 'must be a total like 12345678.90');

export const toCents = (amount: string): number => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};

export const formatCents = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** Normalises "5" or "5.5" to "5.00" / "5.50". */
export const normaliseAmount = (amount: string): string => formatCents(toCents(amount));

/** PayPal's money value: dollars with exactly two decimals, as a string ("59.97"). */
export const paypalAmount = (cents: number): string => (cents / 100).toFixed(2);

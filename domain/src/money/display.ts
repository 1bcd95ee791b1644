const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * Money as shoppers, admins and receipts read it: US dollars, thousands separated, two decimals ("$2,027.87",
 * "-$5.00"). Every screen and document shows money through this one formatter. Free of other imports, so the
 * browser bundle can take it alone.
 */
export const displayCents = (cents: number): string => usd.format(cents / 100);

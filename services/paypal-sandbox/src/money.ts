/** A PayPal amount: `{ currency_code, value }`, value a decimal string. */
export interface Money {
  currency_code: string;
  value: string;
}

/** PayPal's own pattern for `value` (checked before any arithmetic). */
export const MONEY_VALUE = /^((-?[0-9]+)|(-?([0-9]+)?[.][0-9]+))$/;

/** The currencies PayPal's REST APIs accept; the listed ones have no minor unit. */
export const SUPPORTED_CURRENCIES = new Set([
  'AUD',
  'BRL',
  'CAD',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'HKD',
  'HUF',
  'ILS',
  'JPY',
  'MYR',
  'MXN',
  'TWD',
  'NZD',
  'NOK',
  'PHP',
  'PLN',
  'GBP',
  'SGD',
  'SEK',
  'CHF',
  'THB',
  'USD',
]);
const ZERO_DECIMAL = new Set(['HUF', 'JPY', 'TWD']);

export const decimalsOf = (currency: string) => (ZERO_DECIMAL.has(currency) ? 0 : 2);

/** Digits after the point as written ("10.5" → 1, "10" → 0). */
export const decimalPlaces = (value: string) => {
  const point = value.indexOf('.');
  return point === -1 ? 0 : value.length - point - 1;
};

/** Minor units of a value already known to respect the currency's decimals. */
export function toMinor(money: Money): number {
  const decimals = decimalsOf(money.currency_code);
  const negative = money.value.startsWith('-');
  const [whole = '0', fraction = ''] = money.value.replace('-', '').split('.');
  const minor = Number(whole || '0') * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0');
  return negative ? -minor : minor;
}

export function fromMinor(minor: number, currency: string): Money {
  const decimals = decimalsOf(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (decimals === 0) return { currency_code: currency, value: `${sign}${abs}` };
  const whole = Math.floor(abs / 10 ** decimals);
  const fraction = String(abs % 10 ** decimals).padStart(decimals, '0');
  return { currency_code: currency, value: `${sign}${whole}.${fraction}` };
}

/** Normalises to the currency's decimals, as PayPal echoes amounts ("10" → "10.00"). */
export const normalise = (money: Money): Money => fromMinor(toMinor(money), money.currency_code);

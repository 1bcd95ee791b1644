import { randomBytes } from 'node:crypto';

/**
 * A license key no other test run has, in the default key format (five groups of five upper-case letters or
 * digits), so every product without a format of its own takes it.
 */
export const freshLicenseKey = (): string => {
  const hex = randomBytes(13).toString('hex').toUpperCase();
  return [0, 5, 10, 15, 20].map((at) => hex.slice(at, at + 5)).join('-');
};

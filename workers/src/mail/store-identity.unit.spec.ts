import { describe, expect, it } from 'vitest';
import { storeNameFrom } from './store-identity.js';

describe('Store name', () => {
  it.each([
    ['LicenseStore <no-reply@licensestore.local>', 'LicenseStore'],
    ['"Keys & Co" <shop@keys.example>', 'Keys & Co'],
    ['no-reply@keys.example', 'LicenseStore'],
    ['<no-reply@keys.example>', 'LicenseStore'],
  ])('of the From header %s is %s', (from, name) => {
    expect(storeNameFrom(from)).toBe(name);
  });
});

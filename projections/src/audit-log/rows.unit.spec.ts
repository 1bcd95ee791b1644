import { randomBytes } from 'node:crypto';
import { maskKeys, WITHHELD_KEY } from '@licensestore/domain/audit';
import { createKeyVault } from '@licensestore/platform/key-vault';
import { describe, expect, it } from 'vitest';
import { withheldDataJson } from './rows.js';

const vault = createKeyVault(randomBytes(32).toString('base64url'));
const sealed = () => vault.seal('BCDFG-HJKMP-QRTVW-XY234-6789B');

describe('withheldDataJson', () => {
  it('withholds every key the vault seals, wherever it sits, as maskKeys does', () => {
    const data = {
      productId: '0b0c5a4e-6f4e-4f0e-9a57-2b3c4d5e6f70',
      key: sealed(),
      keys: [
        { keyId: 'k1', key: sealed() },
        { keyId: 'k2', nested: [sealed(), 'v1.not-a-key'] },
      ],
      note: `before ${sealed()}`,
      count: 3,
      flag: null,
    };
    const json = withheldDataJson(data);
    expect(JSON.parse(json)).toEqual(maskKeys(data, () => WITHHELD_KEY));
    expect(json).toContain(WITHHELD_KEY);
    expect(json).not.toMatch(/"v1\.[0-9a-f]{8}\./);
  });

  it('leaves data without keys exactly as JSON.stringify writes it', () => {
    const data = { orderId: 'a', lines: [{ name: 'v1.0 Deluxe', price: '9.99' }] };
    expect(withheldDataJson(data)).toBe(JSON.stringify(data));
  });

  it('withholds data that is itself a sealed key', () => {
    expect(withheldDataJson(sealed())).toBe(JSON.stringify(WITHHELD_KEY));
  });
});

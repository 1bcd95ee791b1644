import { randomBytes } from 'node:crypto';
import { sealedKeySchema } from '@licensestore/domain/license-keys';
import { describe, expect, it } from 'vitest';
import { createKeyVault, SealedKeyError } from './index.js';

const secret = () => randomBytes(32).toString('base64url');

describe('KeyVault', () => {
  it('opens what it sealed, and the sealed form never contains the key', () => {
    const vault = createKeyVault(secret());
    const sealed = vault.seal('ABCDE-12345-FGHIJ-67890-KLMNO');
    expect(sealedKeySchema.safeParse(sealed).success).toBe(true);
    expect(sealed).not.toContain('ABCDE');
    expect(vault.open(sealed)).toBe('ABCDE-12345-FGHIJ-67890-KLMNO');
  });

  it('seals the same key differently each time (fresh IV)', () => {
    const vault = createKeyVault(secret());
    expect(vault.seal('KEY-1')).not.toBe(vault.seal('KEY-1'));
  });

  it('refuses a key sealed under another secret, and a tampered one', () => {
    const vault = createKeyVault(secret());
    const sealed = vault.seal('ABCDE-12345');
    expect(() => createKeyVault(secret()).open(sealed)).toThrow(SealedKeyError);
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[3] as string, 'base64url');
    ciphertext[0] = (ciphertext[0] as number) ^ 1;
    parts[3] = ciphertext.toString('base64url');
    expect(() => vault.open(parts.join('.'))).toThrow('failed authentication');
  });

  it('fingerprints a key the same however it is typed, and differently under another secret', () => {
    const key = secret();
    const vault = createKeyVault(key);
    expect(vault.fingerprint(' abcde-12345 ')).toBe(vault.fingerprint('ABCDE-12345'));
    expect(vault.fingerprint('ABCDE-12345')).not.toBe(vault.fingerprint('ABCDE-12346'));
    expect(createKeyVault(secret()).fingerprint('ABCDE-12345')).not.toBe(vault.fingerprint('ABCDE-12345'));
  });

  it('refuses a short secret', () => {
    expect(() => createKeyVault('short')).toThrow('at least 32 characters');
  });
});

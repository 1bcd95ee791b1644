import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * License keys at rest: sealed with AES-256-GCM (a fresh 96-bit IV per key) and fingerprinted with HMAC-SHA256
 * for duplicate detection, both keys derived (HKDF) from one secret: LICENSE_KEY_SECRET, or the one `npm start`
 * keeps in DATA_DIR. Sealed form: `v1.<kid>.<iv>.<ciphertext>.<tag>` (base64url); `kid` names the secret, so a
 * key sealed under another secret is refused instead of decrypting to garbage.
 */
export interface KeyVault {
  seal(licenseKey: string): string;
  open(sealed: string): string;
  /** Same value for the same key however it was typed (case, spaces): what duplicate checks compare. */
  fingerprint(licenseKey: string): string;
  /**
   * A keyed hash of the key's last `KEY_TAIL_LENGTH` characters (canonical), or of a search for them: what finds
   * a key by the characters its mask shows, without opening any key.
   */
  tailHash(licenseKeyOrTail: string): string;
}

/** How many of a key's last characters its mask shows and a search by them takes. */
export const KEY_TAIL_LENGTH = 4;

export class SealedKeyError extends Error {}

/** A 256-bit key for one purpose, derived (HKDF-SHA256) from the license-key secret: one secret, many keys. */
export const deriveKey = (secret: string, purpose: string) =>
  Buffer.from(
    hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `licensestore ${purpose}`, 32),
  );

/** What is compared for duplicates: case and whitespace do not make a different key. */
export const canonicalLicenseKey = (licenseKey: string) => licenseKey.replace(/\s+/g, '').toUpperCase();

export function createKeyVault(secret: string): KeyVault {
  if (secret.length < 32) throw new Error('the license-key secret must be at least 32 characters');
  // The purposes keep the spelling the first sealed key was derived with: another word would derive other keys.
  const encryptionKey = deriveKey(secret, 'licence key encryption');
  const fingerprintKey = deriveKey(secret, 'licence key fingerprint');
  const tailKey = deriveKey(secret, 'licence key tail');
  const kid = createHash('sha256').update(encryptionKey).digest('hex').slice(0, 8);
  return {
    seal(licenseKey) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const ciphertext = Buffer.concat([cipher.update(licenseKey, 'utf8'), cipher.final()]);
      return ['v1', kid, iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, keyId, iv, ciphertext, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || !ciphertext || !tag)
        throw new SealedKeyError('not a sealed license key');
      if (keyId !== kid) throw new SealedKeyError(`license key sealed under another secret (${keyId})`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SealedKeyError('sealed license key failed authentication');
      }
    },
    fingerprint(licenseKey) {
      return createHmac('sha256', fingerprintKey).update(canonicalLicenseKey(licenseKey)).digest('hex');
    },
    tailHash(licenseKeyOrTail) {
      const tail = canonicalLicenseKey(licenseKeyOrTail).slice(-KEY_TAIL_LENGTH);
      return createHmac('sha256', tailKey).update(tail).digest('hex');
    },
  };
}

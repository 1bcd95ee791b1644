import { createHmac, timingSafeEqual } from 'node:crypto';
import { ForbiddenError } from '@licensestore/domain';

/**
 * Signs local upload URLs (`?expires=…&signature=…`) so that only an admin's POST /api/objects/upload can
 * hand one out, and each one works for one object id until it expires. The key is derived from
 * SESSION_SECRET for this purpose alone, so a signature here can never pass as a session signature.
 */
export class UploadSigner {
  readonly #key: Buffer;

  constructor(sessionSecret: string) {
    this.#key = createHmac('sha256', sessionSecret).update('licensestore object upload url v1').digest();
  }

  sign(objectId: string, expiresAt: Date): { expires: string; signature: string } {
    const expires = String(Math.floor(expiresAt.getTime() / 1000));
    return { expires, signature: this.#mac(objectId, expires).toString('base64url') };
  }

  /** Throws 403 unless the signature is ours for this object and expiry, and the expiry has not passed. */
  verify(objectId: string, expires: unknown, signature: unknown, now = new Date()): void {
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires)) {
      throw new ForbiddenError('Upload URL is not signed');
    }
    const expected = this.#mac(objectId, expires);
    const given = Buffer.from(signature, 'base64url');
    // timingSafeEqual needs equal lengths; the length of a MAC is no secret.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ForbiddenError('Upload URL signature is invalid');
    }
    if (Number(expires) * 1000 <= now.getTime()) throw new ForbiddenError('Upload URL has expired');
  }

  #mac(objectId: string, expires: string): Buffer {
    return createHmac('sha256', this.#key).update(`PUT\n${objectId}\n${expires}`).digest();
  }
}

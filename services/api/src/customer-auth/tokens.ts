import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export const SIGN_IN_TOKEN_TTL_SECONDS = 15 * 60;

/** 256 random bits, base64url: 43 characters. Anything else is never looked up. */
const TOKEN = /^[\w-]{43}$/;

/**
 * One-time sign-in tokens for customers. The link carries the token; Redis keeps only its SHA-256 (the token has
 * 256 bits of entropy, so no secret or slow hash is needed), for 15 minutes, and GETDEL makes it single use even
 * when two requests present it at once.
 */
export class SignInTokens {
  constructor(private readonly redis: Redis) {}

  private key(token: string) {
    return `sign-in-token:${createHash('sha256').update(token).digest('hex')}`;
  }

  /** A fresh token for the (normalised) address. */
  async issue(email: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.redis.set(this.key(token), email, 'EX', SIGN_IN_TOKEN_TTL_SECONDS);
    return token;
  }

  /** The address the token was issued for, once; null when unknown, expired, used or malformed. */
  async consume(token: string): Promise<string | null> {
    if (!TOKEN.test(token)) return null;
    return this.redis.getdel(this.key(token));
  }
}

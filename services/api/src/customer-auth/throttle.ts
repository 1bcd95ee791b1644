import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { countHits } from '../http/fixed-windows.js';

export const SIGN_IN_LINK_LIMITS = { perAddress: 5, perClient: 20, windowSeconds: 15 * 60 };

export type SignInLinkVerdict = { allowed: true } | { allowed: false; limit: 'address' | 'client' };

/**
 * Fixed-window counters of sign-in link requests, per address (whoever asks) and per client IP. Both are counted
 * in one MULTI (countHits) before anything is sent, so parallel requests cannot slip past the limit. Addresses appear in
 * Redis only as hashes.
 */
export class SignInLinkThrottle {
  constructor(private readonly redis: Redis) {}

  async request(email: string, ip: string): Promise<SignInLinkVerdict> {
    const address = `sign-in-links:address:${createHash('sha256').update(email).digest('hex')}`;
    const client = `sign-in-links:client:${ip}`;
    const [perAddress, perClient] = await countHits(this.redis, SIGN_IN_LINK_LIMITS.windowSeconds, [
      address,
      client,
    ] as const);
    if (perAddress.count > SIGN_IN_LINK_LIMITS.perAddress) return { allowed: false, limit: 'address' };
    if (perClient.count > SIGN_IN_LINK_LIMITS.perClient) return { allowed: false, limit: 'client' };
    return { allowed: true };
  }
}

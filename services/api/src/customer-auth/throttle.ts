import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export const SIGN_IN_LINK_LIMITS = { perAddress: 5, perClient: 20, windowSeconds: 15 * 60 };

export type SignInLinkVerdict = { allowed: true } | { allowed: false; limit: 'address' | 'client' };

/**
 * Fixed-window counters of sign-in link requests, per address (whoever asks) and per client IP. Both are counted
 * in one MULTI before anything is sent, so parallel requests cannot slip past the limit. Addresses appear in
 * Redis only as hashes.
 */
export class SignInLinkThrottle {
  constructor(private readonly redis: Redis) {}

  async request(email: string, ip: string): Promise<SignInLinkVerdict> {
    const address = `sign-in-links:address:${createHash('sha256').update(email).digest('hex')}`;
    const client = `sign-in-links:client:${ip}`;
    const window = SIGN_IN_LINK_LIMITS.windowSeconds;
    const results = await this.redis
      .multi()
      .set(address, 0, 'EX', window, 'NX')
      .incr(address)
      .set(client, 0, 'EX', window, 'NX')
      .incr(client)
      .exec();
    const value = (index: number) => Number(results?.[index]?.[1] ?? 0);
    if (value(1) > SIGN_IN_LINK_LIMITS.perAddress) return { allowed: false, limit: 'address' };
    if (value(3) > SIGN_IN_LINK_LIMITS.perClient) return { allowed: false, limit: 'client' };
    return { allowed: true };
  }
}

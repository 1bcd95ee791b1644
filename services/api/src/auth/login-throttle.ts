import { TooManyRequestsError } from '@licensestore/shared';
import { usernameKey } from '@licensestore/shared/back-office';
import type { Redis } from 'ioredis';
import { countHits } from '../http/fixed-windows.js';

const LIMITS = { perUsernameAndIp: 5, perIp: 20, windowSeconds: 15 * 60 };

/** Clears the pair's counter and returns one attempt to the IP's, unless its window has already ended. */
const GIVE_BACK = `
redis.call('DEL', KEYS[1])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('DECR', KEYS[2]) end
return 1`;

/**
 * Fixed-window counters of sign-in attempts. An attempt is counted before the password is checked, so
 * parallel guesses cannot slip past the limit; a successful sign-in gives its attempt back. A username counts as
 * its key: `ADMIN` and `ａｄｍｉｎ` are guesses at the same account.
 */
export class LoginThrottle {
  constructor(private readonly redis: Redis) {}

  private keys(username: string, ip: string) {
    return { pair: `login-attempts:${ip}:${usernameKey(username)}`, ip: `login-attempts:${ip}` };
  }

  /** Counts an attempt; throws 429 with the time left in the window when either limit is exceeded. */
  async attempt(username: string, ip: string): Promise<void> {
    const keys = this.keys(username, ip);
    const [pair, client] = await countHits(this.redis, LIMITS.windowSeconds, [keys.pair, keys.ip] as const);
    const overPair = pair.count > LIMITS.perUsernameAndIp;
    const overIp = client.count > LIMITS.perIp;
    if (!overPair && !overIp) return;
    const retryAfter = Math.max(overPair ? pair.secondsLeft : 1, overIp ? client.secondsLeft : 1);
    const minutes = Math.ceil(retryAfter / 60);
    throw new TooManyRequestsError(
      `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      retryAfter,
    );
  }

  async succeeded(username: string, ip: string): Promise<void> {
    const keys = this.keys(username, ip);
    await this.redis.eval(GIVE_BACK, 2, keys.pair, keys.ip);
  }
}

import { TooManyRequestsError } from '@licensestore/domain';
import { usernameKey } from '@licensestore/domain/back-office';
import type { Redis } from 'ioredis';
import { seconds } from '../http/client-throttle.js';
import { countHits } from '../http/fixed-windows.js';

const LIMITS = { perUsernameAndIp: 5, perIp: 20, windowSeconds: 15 * 60 };

/**
 * Failures in a row an account takes from all addresses together before each further try has to wait, and how that
 * wait grows: 2 s after the fifth, doubling with each failure, never more than 5 minutes. Whoever guesses from many
 * addresses gets a dozen guesses an hour at most; the real admin, at worst, waits 5 minutes for a try. The count is
 * forgotten a day after the last failure, and at once on a sign-in.
 */
export const ACCOUNT_DELAY = { afterFailures: 5, maxSeconds: 5 * 60, forgetSeconds: 24 * 60 * 60 };

/**
 * An account's try, taken atomically so parallel guesses cannot all slip into one pause: refused (with the
 * milliseconds left) while the account waits; otherwise counted as a failure in advance and, from the fifth failure
 * on, the next wait begins. A sign-in clears both keys.
 */
const ACCOUNT_TRY = `
local waiting = redis.call('PTTL', KEYS[2])
if waiting > 0 then return waiting end
local failures = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
if failures >= tonumber(ARGV[1]) then
  local seconds = math.min(2 ^ (failures - tonumber(ARGV[1]) + 1), tonumber(ARGV[2]))
  redis.call('SET', KEYS[2], 1, 'PX', seconds * 1000)
end
return 0`;

/** Clears the pair's counter and returns one attempt to the IP's, unless its window has already ended. */
const GIVE_BACK = `
redis.call('DEL', KEYS[1])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('DECR', KEYS[2]) end
return 1`;

/**
 * Fixed-window counters of sign-in attempts per address and per address and username, and a growing pause per
 * account across addresses (ACCOUNT_DELAY). An attempt is counted before the password is checked, so parallel
 * guesses cannot slip past a limit; a successful sign-in gives its attempt back and ends the account's pause. A
 * username counts as its key: `ADMIN` and `ａｄｍｉｎ` are guesses at the same account.
 */
export class LoginThrottle {
  constructor(private readonly redis: Redis) {}

  private keys(username: string, ip: string) {
    const account = usernameKey(username);
    return {
      pair: `login-attempts:${ip}:${account}`,
      ip: `login-attempts:${ip}`,
      accountFailures: `login-failures:${account}`,
      accountWait: `login-wait:${account}`,
    };
  }

  /** Counts an attempt; throws 429 with the time left when a limit is exceeded or the account is paused. */
  async attempt(username: string, ip: string): Promise<void> {
    const keys = this.keys(username, ip);
    const [pair, client] = await countHits(this.redis, LIMITS.windowSeconds, [keys.pair, keys.ip] as const);
    const overPair = pair.count > LIMITS.perUsernameAndIp;
    const overIp = client.count > LIMITS.perIp;
    if (overPair || overIp) {
      const retryAfter = Math.max(overPair ? pair.secondsLeft : 1, overIp ? client.secondsLeft : 1);
      const minutes = Math.ceil(retryAfter / 60);
      throw new TooManyRequestsError(
        `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        retryAfter,
      );
    }
    const waiting = Number(
      await this.redis.eval(
        ACCOUNT_TRY,
        2,
        keys.accountFailures,
        keys.accountWait,
        ACCOUNT_DELAY.afterFailures,
        ACCOUNT_DELAY.maxSeconds,
        ACCOUNT_DELAY.forgetSeconds,
      ),
    );
    if (waiting > 0) {
      const wait = Math.ceil(waiting / 1000);
      throw new TooManyRequestsError(
        `This account had too many failed sign-ins, from any address. Try again in ${seconds(wait)}; each further ` +
          `failure doubles the wait, up to ${ACCOUNT_DELAY.maxSeconds / 60} minutes, and signing in resets it.`,
        wait,
      );
    }
  }

  async succeeded(username: string, ip: string): Promise<void> {
    const keys = this.keys(username, ip);
    await this.redis.eval(GIVE_BACK, 2, keys.pair, keys.ip);
    await this.redis.del(keys.accountFailures, keys.accountWait);
  }
}

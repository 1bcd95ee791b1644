import type { Redis } from 'ioredis';

export interface WindowCount {
  /** Hits in the current window, this one included. */
  count: number;
  /** Seconds until the window ends and the count starts again (at least 1). */
  secondsLeft: number;
}

/**
 * Counts one hit on each of `keys`, each a fixed window of `windowSeconds` opened by its first hit. All are counted in
 * one MULTI before the caller acts, so parallel requests cannot slip past a limit: the one mechanism behind every
 * throttle of the store (admin sign-in, sign-in links, checkouts).
 */
export async function countHits<Keys extends readonly string[]>(
  redis: Redis,
  windowSeconds: number,
  keys: Keys,
): Promise<{ [Index in keyof Keys]: WindowCount }> {
  const multi = redis.multi();
  for (const key of keys) multi.set(key, 0, 'EX', windowSeconds, 'NX').incr(key).ttl(key);
  const results = await multi.exec();
  const value = (index: number) => Number(results?.[index]?.[1] ?? 0);
  return keys.map((_key, index) => ({
    count: value(index * 3 + 1),
    secondsLeft: Math.max(value(index * 3 + 2), 1),
  })) as { [Index in keyof Keys]: WindowCount };
}

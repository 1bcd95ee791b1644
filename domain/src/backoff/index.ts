export interface Backoff {
  /** The wait before the first retry. */
  firstMs: number;
  /** No wait is longer. */
  maxMs?: number;
  /**
   * Racing retriers that failed together would collide again if they waited alike: `full` waits a random part of
   * the delay, `half` a random part of its second half; `none` waits it all.
   */
  jitter?: 'none' | 'full' | 'half';
}

/**
 * How long to wait after `failures` failures in a row: `firstMs` after the first (or none yet), doubling with each
 * further one up to `maxMs`, spread by `jitter`.
 */
export function backoffDelay(
  failures: number,
  { firstMs, maxMs = Infinity, jitter = 'none' }: Backoff,
): number {
  const delay = Math.min(maxMs, firstMs * 2 ** (Math.max(1, failures) - 1));
  if (jitter === 'full') return delay * Math.random();
  if (jitter === 'half') return delay * (0.5 + Math.random() / 2);
  return delay;
}

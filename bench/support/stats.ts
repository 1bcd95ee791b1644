export const format = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

export interface Run {
  ms: number;
  /** What each job reported, ascending. */
  latencies: number[];
}

/** `count` jobs over `concurrency` workers; each job reports the latency it wants recorded. */
export async function runConcurrently(
  count: number,
  concurrency: number,
  job: (i: number) => Promise<number>,
): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) latencies.push(await job(i));
    }),
  );
  return { ms: performance.now() - started, latencies: latencies.sort((a, b) => a - b) };
}

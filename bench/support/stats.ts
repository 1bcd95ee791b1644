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

/** Rows as aligned columns, the first row a header underlined with dashes. */
export function printTable(rows: string[][]) {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  '));
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

import autocannon from 'autocannon';

/** A server under load and what each connection asks it, in turn. */
export interface LoadTarget {
  origin: string;
  requests: autocannon.Request[];
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** Requests per second over all connections; as fast as answered when unset. */
  overallRate?: number;
}

/** What one or more runs against one target measured. */
export interface LoadFigures {
  requestsPerSecond: number;
  /** Latency percentiles over every request of every run, in milliseconds. */
  p50: number;
  p99: number;
  completed: number;
  /** Responses per status code. */
  statuses: Map<number, number>;
  /** Connection errors and timeouts. */
  errors: number;
}

/** A run's result before aggregation: autocannon keeps its latency histogram encoded for `aggregateResult`. */
type RawResult = autocannon.Result & { totalCompletedRequests: number };

/** In autocannon (lib/aggregateResult.js) but not in @types/autocannon. */
const { aggregateResult } = autocannon as unknown as {
  aggregateResult: (results: RawResult[], options: autocannon.Options) => autocannon.Result;
};

/** One autocannon run; its histograms stay mergeable with other runs' (see `summarize`). */
export async function load(target: LoadTarget, options: LoadOptions): Promise<RawResult> {
  return (await autocannon({
    url: target.origin,
    requests: target.requests,
    connections: options.connections,
    duration: options.seconds,
    overallRate: options.overallRate,
    skipAggregateResult: true,
  })) as RawResult;
}

/**
 * Runs against one target taken together. Requests/s is every completed request over the runs' summed duration:
 * autocannon's own aggregate merges only the latency histograms, not the per-second samples.
 */
export function summarize(runs: RawResult[], options: LoadOptions): LoadFigures {
  const merged = aggregateResult(runs, { url: 'http://aggregate', connections: options.connections });
  const statuses = new Map<number, number>();
  for (const [code, { count }] of Object.entries(merged.statusCodeStats ?? {}))
    statuses.set(Number(code), count ?? 0);
  const completed = runs.reduce((sum, run) => sum + run.totalCompletedRequests, 0);
  const seconds = runs.reduce((sum, run) => sum + run.duration, 0);
  return {
    requestsPerSecond: completed / seconds,
    p50: merged.latency.p50,
    p99: merged.latency.p99,
    completed,
    statuses,
    errors: merged.errors + merged.timeouts,
  };
}

/**
 * The same load against two servers in turns (A B A B …), so drift on a shared machine (other processes, the JIT,
 * the garbage collector's mood) falls on both alike. A short unmeasured run warms each up first.
 */
export async function alternate(
  targets: { a: LoadTarget; b: LoadTarget },
  options: LoadOptions & { rounds: number; warmupSeconds: number },
): Promise<{ a: LoadFigures; b: LoadFigures }> {
  const perRun = { ...options, seconds: options.seconds / options.rounds };
  await load(targets.a, { ...options, seconds: options.warmupSeconds });
  await load(targets.b, { ...options, seconds: options.warmupSeconds });
  const runs = { a: [] as RawResult[], b: [] as RawResult[] };
  for (let round = 0; round < options.rounds; round++) {
    runs.a.push(await load(targets.a, perRun));
    runs.b.push(await load(targets.b, perRun));
  }
  return { a: summarize(runs.a, perRun), b: summarize(runs.b, perRun) };
}

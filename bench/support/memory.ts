import { readFile } from 'node:fs/promises';

/** A process's memory at one moment, in bytes; the heap only when it says so itself (/metrics). */
export interface MemorySample {
  rss: number;
  heapUsed: number | null;
}

/** The resident set the kernel reports for `pid` (VmRSS in /proc/<pid>/status). */
async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kilobytes) throw new Error(`/proc/${pid}/status has no VmRSS`);
  return Number(kilobytes) * 1024;
}

/** prom-client's default `nodejs_heap_size_used_bytes` from the api's /metrics (loopback callers are answered). */
async function heapUsedBytes(origin: string): Promise<number | null> {
  try {
    const response = await fetch(`${origin}/metrics`);
    if (!response.ok) return null;
    const value = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(await response.text())?.[1];
    return value === undefined ? null : Number(value);
  } catch {
    return null;
  }
}

/** The api process's memory: its RSS from the kernel, its V8 heap from its metrics when it has them. */
export async function sampleMemory(pid: number, origin: string): Promise<MemorySample> {
  const [rss, heapUsed] = await Promise.all([residentBytes(pid), heapUsedBytes(origin)]);
  return { rss, heapUsed };
}

/** The api's memory over a window: its RSS at the end, and the lowest heap seen while the window lasted. */
export interface WindowMemory {
  rss: number;
  /**
   * The troughs of the garbage collector's sawtooth: what stays alive. A leak raises them; a busy moment (more
   * requests in flight, a collection not yet run) raises only the peaks a single sample may hit.
   */
  heapFloor: number | null;
}

/** Samples the process every `everyMs` until stopped; `take` closes a window and starts the next. */
export function watchMemory(pid: number, origin: string, everyMs: number) {
  let samples: MemorySample[] = [];
  let sampling: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampleMemory(pid, origin).then(
      (sample) => {
        samples.push(sample);
      },
      // A sample missed (the process busy past the scrape) leaves the others to judge.
      () => {},
    );
  }, everyMs);
  return {
    take: async (): Promise<WindowMemory> => {
      await sampling;
      const last = await sampleMemory(pid, origin);
      const heaps = [...samples, last].flatMap((sample) =>
        sample.heapUsed === null ? [] : [sample.heapUsed],
      );
      samples = [];
      return { rss: last.rss, heapFloor: heaps.length ? Math.min(...heaps) : null };
    },
    stop: () => clearInterval(timer),
  };
}

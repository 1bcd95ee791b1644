/** An admin's requests to the back office, timed one after the other as one person browsing makes them. */
export interface Browser {
  origin: string;
  /** The admin's session cookie. */
  cookie: string;
  /** A request not answered within this is a failure, not a slow sample. */
  timeoutMs: number;
}

export interface Timings {
  /** Milliseconds, ascending. */
  ms: number[];
  /** The largest body answered, in bytes. */
  bytes: number;
  /** Why sampling stopped early (an error status, a timeout), if it did. */
  failure: string | null;
}

/** One GET as the back office's client makes it; its time covers the whole body. */
export async function timedGet(browser: Browser, path: string): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const response = await fetch(`${browser.origin}${path}`, {
    headers: { cookie: browser.cookie, accept: 'application/json' },
    signal: AbortSignal.timeout(browser.timeoutMs),
  });
  const body = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 200)}`);
  return { ms, body };
}

const failureOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * `path` fetched up to `samples` times, stopping early once `budgetMs` is spent (a list that answers every row
 * may take seconds a time) or at the first failure.
 */
export async function sampleGet(
  browser: Browser,
  path: string,
  options: { samples: number; budgetMs: number },
): Promise<Timings> {
  const timings: Timings = { ms: [], bytes: 0, failure: null };
  const started = performance.now();
  while (timings.ms.length < options.samples && performance.now() - started < options.budgetMs) {
    try {
      const { ms, body } = await timedGet(browser, path);
      timings.ms.push(ms);
      timings.bytes = Math.max(timings.bytes, Buffer.byteLength(body));
    } catch (error) {
      timings.failure = failureOf(error);
      break;
    }
  }
  timings.ms.sort((a, b) => a - b);
  return timings;
}

/** How far a walk of a list's cursor got: the pages it fetched, and whether it stopped at the list's end. */
export interface Walk extends Timings {
  walked: number;
  reachedEnd: boolean;
}

/**
 * Walks a list's cursor from `first` for up to `pages` pages, stopping at the list's end (no page after). The timings
 * are those of the deeper half of the pages walked, pages no earlier visit has warmed.
 */
export async function walkPages(
  browser: Browser,
  first: string,
  nextPage: (body: unknown) => string | null,
  pages: number,
): Promise<Walk> {
  const fetched: Array<{ ms: number; bytes: number }> = [];
  let failure: string | null = null;
  let path: string | null = first;
  while (path !== null && fetched.length < pages) {
    try {
      const { ms, body } = await timedGet(browser, path);
      fetched.push({ ms, bytes: Buffer.byteLength(body) });
      path = nextPage(JSON.parse(body));
    } catch (error) {
      failure = failureOf(error);
      break;
    }
  }
  const deeper = fetched.slice(Math.floor(fetched.length / 2));
  return {
    ms: deeper.map((page) => page.ms).sort((a, b) => a - b),
    bytes: Math.max(0, ...deeper.map((page) => page.bytes)),
    failure,
    walked: fetched.length,
    reachedEnd: failure === null && path === null,
  };
}

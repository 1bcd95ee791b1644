/**
 * Load on the storefront's read endpoints: requests/s and latency of GET /api/products, GET /api/products/:id (every
 * product in turn), the home page's HTML shell and a revalidation (If-None-Match of the current ETag, answered 304),
 * each at 100 connections with autocannon, against a baseline measured in the same run: a bare Express app in its
 * own process answering the same paths with the same bytes from memory (bench/support/baseline-server.ts).
 *
 *   npm run bench:api
 *
 * The store runs as `npm start` runs it (bench/support/store.ts) with the demo store, the api in production mode.
 * The api and the baseline take turns (A B A B) so drift on the machine falls on both. Targets: at least
 * 0.8 of the baseline's requests/s and p99 under 20 ms. A missed target prints FAIL; a wrong answer (no ETag, no 304
 * on revalidation, a body with a 304, an error under load) makes it exit 1.
 * Knobs: BENCH_CONNECTIONS (100), BENCH_SECONDS (12 per server and case, split over the rounds), BENCH_ROUNDS (2),
 * BENCH_WARMUP_SECONDS (2).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { freePort } from '../scripts/stack/free-port.js';
import type { BaselineAnswer } from './support/baseline-server.js';
import { alternate, type LoadFigures } from './support/load.js';
import { format, printTable } from './support/stats.js';
import { spawnHelper, startBenchStore, waitUntilAnswering } from './support/store.js';
import { builtWebClient } from './support/web-dist.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const TARGET_RATIO = 0.8;
const TARGET_P99_MS = 20;
const PAGE_LOAD = { accept: 'text/html,application/xhtml+xml' };

/** One answer of the store as fetched before the load: what the baseline replays and the checks look at. */
interface Answer {
  path: string;
  headers: Record<string, string>;
  status: number;
  contentType: string;
  etag: string | null;
  cacheControl: string | null;
  body: Buffer;
}

async function fetchAnswer(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, { headers });
  return {
    path,
    headers,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    etag: response.headers.get('etag'),
    cacheControl: response.headers.get('cache-control'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** Wrong answers found; any makes the bench exit 1. */
const failures: string[] = [];
function check(ok: boolean, what: string) {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

/** An answer fit to be cached and revalidated: 200, an ETag, Cache-Control, and 304 without a body for its ETag. */
async function checkCaching(origin: string, answer: Answer) {
  check(
    answer.status === 200 && answer.etag !== null && answer.cacheControl !== null,
    `GET ${answer.path}: ${answer.status}, ETag ${answer.etag ?? 'missing'}, Cache-Control ${answer.cacheControl ?? 'missing'}`,
  );
  if (!answer.etag) return;
  const again = await fetch(`${origin}${answer.path}`, {
    headers: { ...answer.headers, 'if-none-match': answer.etag },
  });
  const body = await again.arrayBuffer();
  check(
    again.status === 304 && body.byteLength === 0,
    `GET ${answer.path} with If-None-Match: ${again.status}, ${body.byteLength} bytes of body`,
  );
}

interface Case {
  name: string;
  /** The requests each connection makes in turn, per server (each server revalidates with its own ETags). */
  api: autocannon.Request[];
  baseline: autocannon.Request[];
  /** The only status every answer under load may have. */
  status: number;
}

/** Every answer under load had the case's status, and no connection failed. */
function checkUnderLoad(name: string, server: string, figures: LoadFigures, status: number) {
  const others = [...figures.statuses].filter(([code]) => code !== status);
  check(
    others.length === 0 && figures.errors === 0 && figures.completed > 0,
    `${name} on ${server} under load: ${format(figures.statuses.get(status) ?? 0)} × ${status}` +
      `${others.map(([code, count]) => `, ${format(count)} × ${code}`).join('')}, ${figures.errors} connection errors`,
  );
}

async function main() {
  console.log(
    `api load bench: ${CONNECTIONS} connections, ${SECONDS} s per server and case in ${ROUNDS} turns ` +
      `(after ${WARMUP_SECONDS} s warm-up each), ${cpus().length} CPUs (load average ${loadavg()[0]?.toFixed(1)} at start: ` +
      `other work on the machine takes its share from both sides), Node ${process.version}`,
  );
  const web = await builtWebClient();
  const scratch = await mkdtemp(join(tmpdir(), 'licensestore-bench-api-'));
  const store = await startBenchStore({ demoStore: true, webDist: web.dir });
  let baseline: ReturnType<typeof spawnHelper> | undefined;
  try {
    const products = await fetchAnswer(store.apiUrl, '/api/products');
    const ids = (JSON.parse(products.body.toString('utf8')) as Array<{ id: string }>).map(
      (product) => product.id,
    );
    console.log(`\nthe store: ${store.apiUrl}, ${ids.length} products; its answers:`);
    const byId = await Promise.all(ids.map((id) => fetchAnswer(store.apiUrl, `/api/products/${id}`)));
    const home = await fetchAnswer(store.apiUrl, '/', PAGE_LOAD);
    check(ids.length > 0, `${ids.length} products listed`);
    check(home.contentType.startsWith('text/html'), `GET / is the HTML shell (${home.contentType})`);
    for (const answer of [products, ...byId, home]) await checkCaching(store.apiUrl, answer);

    const answersFile = join(scratch, 'answers.json');
    const answers: BaselineAnswer[] = [products, ...byId, home].map((answer) => ({
      path: answer.path,
      contentType: answer.contentType,
      body: answer.body.toString('base64'),
    }));
    await writeFile(answersFile, JSON.stringify(answers));
    const baselinePort = await freePort();
    const baselineOrigin = `http://127.0.0.1:${baselinePort}`;
    baseline = spawnHelper('bench/support/baseline-server.ts', {
      PORT: String(baselinePort),
      BASELINE_ANSWERS: answersFile,
    });
    await waitUntilAnswering(`${baselineOrigin}/api/products`);
    const baselineProducts = await fetchAnswer(baselineOrigin, '/api/products');
    check(
      baselineProducts.body.equals(products.body),
      `the baseline answers the same bytes (${format(products.body.length)} bytes for /api/products)`,
    );

    const cases: Case[] = [
      {
        name: 'GET /api/products',
        api: [{ path: '/api/products' }],
        baseline: [{ path: '/api/products' }],
        status: 200,
      },
      {
        name: `GET /api/products/:id (${ids.length} ids)`,
        api: ids.map((id) => ({ path: `/api/products/${id}` })),
        baseline: ids.map((id) => ({ path: `/api/products/${id}` })),
        status: 200,
      },
      {
        name: 'GET / (HTML shell)',
        api: [{ path: '/', headers: PAGE_LOAD }],
        baseline: [{ path: '/', headers: PAGE_LOAD }],
        status: 200,
      },
      {
        name: 'GET /api/products, If-None-Match',
        api: [{ path: '/api/products', headers: { 'if-none-match': products.etag ?? '' } }],
        baseline: [{ path: '/api/products', headers: { 'if-none-match': baselineProducts.etag ?? '' } }],
        status: 304,
      },
    ];

    const rows: string[][] = [];
    for (const each of cases) {
      console.log(`\n${each.name}: api and baseline in turns...`);
      const { a: api, b: base } = await alternate(
        {
          a: { origin: store.apiUrl, requests: each.api },
          b: { origin: baselineOrigin, requests: each.baseline },
        },
        { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, warmupSeconds: WARMUP_SECONDS },
      );
      checkUnderLoad(each.name, 'the api', api, each.status);
      checkUnderLoad(each.name, 'the baseline', base, each.status);
      const ratio = api.requestsPerSecond / base.requestsPerSecond;
      const met = ratio >= TARGET_RATIO && api.p99 < TARGET_P99_MS;
      rows.push([
        each.name,
        format(api.requestsPerSecond),
        `${format(api.p50, 1)} / ${format(api.p99, 1)}`,
        format(base.requestsPerSecond),
        `${format(base.p50, 1)} / ${format(base.p99, 1)}`,
        `${format(ratio, 2)}`,
        met ? 'PASS' : 'FAIL',
      ]);
    }

    console.log(
      `\nSummary (${CONNECTIONS} connections; target: api/baseline req/s >= ${TARGET_RATIO} and api p99 < ${TARGET_P99_MS} ms):`,
    );
    printTable([
      [
        'case',
        'api req/s',
        'api p50 / p99 ms',
        'baseline req/s',
        'baseline p50 / p99 ms',
        'api/baseline',
        'target',
      ],
      ...rows,
    ]);
    console.log(
      failures.length === 0
        ? '\ncorrectness checks: all passed'
        : `\ncorrectness checks: ${failures.length} FAILED:\n${failures.map((failure) => `  ${failure}`).join('\n')}`,
    );
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    await baseline?.stop(5000);
    await store.stop();
    await rm(scratch, { recursive: true, force: true });
    await web.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

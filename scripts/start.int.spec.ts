import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Product } from '@licensestore/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './stack/free-port.js';
import {
  ctrlC,
  freshEnv,
  killStore,
  type StoreProcess,
  spawnStore,
  waitForUrl,
} from './testing/store-process.js';

const STARTUP_MS = 180_000;

interface Started extends StoreProcess {
  url: string;
}

async function start(dataDir: string): Promise<Started> {
  const port = await freePort();
  const store = spawnStore(freshEnv({ DATA_DIR: dataDir, PORT: String(port) }));
  return { ...store, url: await waitForUrl(store) };
}

interface ProcessInfo {
  pid: number;
  ppid: number;
  name: string;
  zombie: boolean;
}

function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      ppid: Number(ppid),
      name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      zombie: state === 'Z',
    };
  } catch {
    return null;
  }
}

/** Every process below `pid`, from /proc (the roles and the services host run in process groups of their own). */
function descendants(pid: number): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const entry of readdirSync('/proc')) {
    const info = /^\d+$/.test(entry) ? readProcess(Number(entry)) : null;
    if (info) children.set(info.ppid, [...(children.get(info.ppid) ?? []), info]);
  }
  const found: ProcessInfo[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/**
 * Still running: the same process (pid and name), not a zombie waiting for init to reap it. tsx's esbuild service
 * of the supervisor itself is left out: it belongs to tsx and ends on its own when its parent's pipe closes.
 */
const survivors = (processes: ProcessInfo[]) =>
  processes.filter((p) => {
    const now = readProcess(p.pid);
    return now !== null && !now.zombie && now.name === p.name && p.name !== 'esbuild';
  });

const getJson = async <T>(url: string): Promise<T> => {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return (await response.json()) as T;
};

describe('npm start', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'licensestore-start-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('on a fresh machine', () => {
    let first: Started;
    let processes: ProcessInfo[];
    let productIds: string[];

    beforeAll(async () => {
      first = await start(dataDir);
      processes = descendants(first.child.pid as number);
    }, STARTUP_MS);

    afterAll(() => {
      // Only if an assertion failed before the orderly stop.
      if (first) killStore(first);
    });

    it('serves the demo catalogue with every field of the spec', async () => {
      const products = await getJson<Product[]>(`${first.url}/api/products`);

      expect(products.length).toBeGreaterThanOrEqual(16);
      for (const product of products) {
        expect(product).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: expect.any(String),
          description: expect.any(String),
          imageUrl: expect.stringMatching(/^\/images\/products\/[a-z0-9-]+\.svg$/),
          category: expect.any(String),
          platform: expect.any(String),
          regularPrice: expect.stringMatching(/^\d+\.\d{2}$/),
          salePrice: product.salePrice === null ? null : expect.stringMatching(/^\d+\.\d{2}$/),
          featured: expect.any(Boolean),
          inStock: expect.any(Boolean),
          // Beyond the spec: where the official installer is, and how to install.
          downloadUrl: expect.stringMatching(/^https:\/\//),
          installationNotes: expect.any(String),
          // The demo products keep the default license-key format.
          keyFormat: null,
        });
      }
      expect(products.filter((p) => p.featured).length).toBeGreaterThanOrEqual(8);
      expect(products.filter((p) => !p.inStock)).toHaveLength(1);
      expect(new Set(products.map((p) => p.category))).toEqual(
        new Set(['Office Suites', 'Operating Systems', 'Antivirus', 'Creative Tools']),
      );
      productIds = products.map((p) => p.id).sort();
    });

    it('serves at least six testimonials', async () => {
      const testimonials = await getJson<Record<string, unknown>[]>(`${first.url}/api/testimonials`);

      expect(testimonials.length).toBeGreaterThanOrEqual(6);
      for (const testimonial of testimonials) {
        expect(Object.keys(testimonial).sort()).toEqual(
          ['comment', 'customerName', 'date', 'id', 'location', 'rating'].sort(),
        );
      }
    });

    it("serves the products' images itself", async () => {
      const [product] = await getJson<Product[]>(`${first.url}/api/products`);
      const response = await fetch(`${first.url}${product?.imageUrl}`);

      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await response.text()).toContain('<svg');
    });

    it('keeps its secrets in DATA_DIR, readable by the owner only', async () => {
      const { statSync } = await import('node:fs');
      expect(statSync(join(dataDir, 'secrets', 'session-secret')).mode & 0o777).toBe(0o600);
    });

    it('refuses a second start on the same DATA_DIR, leaving the first one running', async () => {
      const second = spawnStore(freshEnv({ DATA_DIR: dataDir, PORT: String(await freePort()) }));

      expect(await second.exited).toBe(1);
      expect(second.output.join('\n')).toContain('is using');
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    });

    it('stops everything on Ctrl-C, exiting 0 and leaving no Postgres or Redis behind', async () => {
      const names = processes.map((p) => p.name);
      expect(names).toContain('postgres');
      expect(names).toContain('redis-server');

      const code = await ctrlC(first);
      expect(code, first.output.join('\n')).toBe(0);

      expect(survivors(processes)).toEqual([]);
      expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
      expect(existsSync(join(dataDir, 'start.pid'))).toBe(false);
      expect(existsSync(join(dataDir, 'stack.env'))).toBe(false);
      const stopLines = first.output.filter((line) => /stopping (api|workers|projections|Redis)/.test(line));
      expect(stopLines.map((line) => line.replace(/^.*stopping /, ''))).toEqual([
        'api',
        'workers',
        'projections',
        'Redis and Postgres',
      ]);
    });

    describe('started again on the same DATA_DIR', () => {
      it(
        'keeps the data and does not seed twice',
        async () => {
          const again = await start(dataDir);
          try {
            const products = await getJson<Product[]>(`${again.url}/api/products`);
            expect(products.map((p) => p.id).sort()).toEqual(productIds);
            const testimonials = await getJson<unknown[]>(`${again.url}/api/testimonials`);
            expect(testimonials.length).toBeGreaterThanOrEqual(6);
            expect(again.output.join('\n')).not.toContain('seeded the demo store');
          } finally {
            const code = await ctrlC(again);
            expect(code, again.output.join('\n')).toBe(0);
          }
        },
        STARTUP_MS,
      );
    });
  });

  describe('without redis-server on PATH and no REDIS_URL', () => {
    it('exits 1 with install hints before starting anything', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'licensestore-noredis-'));
      try {
        const run = spawnStore(
          freshEnv({ DATA_DIR: dir, PORT: String(await freePort()), PATH: '/nonexistent' }),
        );

        expect(await run.exited).toBe(1);
        const output = run.output.join('\n');
        expect(output).toContain('redis-server was not found');
        expect(output).toContain('apt-get install redis-server');
        expect(existsSync(join(dir, 'postgres'))).toBe(false);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});

// deploy/haproxy.cfg's rules, run by the real haproxy as the cluster runs it, in front of small HTTP servers that
// stand in for the api instances.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../stack/free-port.js';
import { type Balancer, startBalancer } from './haproxy.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Health checks run every second; a change of rotation shows within a few. */
const ROTATION_MS = 10_000;

interface Backend {
  name: string;
  url: string;
  server: Server;
  /** Whether the health checks (/readyz, /healthz) pass. */
  ready: boolean;
  /** Requests other than health checks, by method. */
  received: Record<string, number>;
}

type Handler = (backend: Backend, req: IncomingMessage, res: ServerResponse) => void;

/** Answers every request with its own name and what it received, unless `handler` says otherwise. */
const echo: Handler = (backend, req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        backend: backend.name,
        method: req.method,
        url: req.url,
        host: req.headers.host,
        forwardedFor: req.headers['x-forwarded-for'],
        forwardedProto: req.headers['x-forwarded-proto'],
        body: Buffer.concat(chunks).toString(),
      }),
    );
  });
};

/** Reads the request, then closes the connection without a word, as an instance killed mid-request does. */
const dropAfterReading: Handler = (_backend, req) => {
  req.resume();
  req.on('end', () => req.socket.destroy());
};

const open: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

async function backend(name: string, handler: Handler = echo): Promise<Backend> {
  const self: Backend = { name, url: '', server: createServer(), ready: true, received: {} };
  self.server.on('request', (req, res) => {
    if (req.url === '/readyz' || req.url === '/healthz') {
      res.statusCode = self.ready ? 200 : 503;
      res.end();
      return;
    }
    self.received[req.method ?? ''] = (self.received[req.method ?? ''] ?? 0) + 1;
    handler(self, req, res);
  });
  await new Promise<void>((resolve) => self.server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(self.server.address() as AddressInfo).port}`;
  open.push(() => stopServer(self.server));
  return self;
}

const stopServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

async function balancer(one: Backend, two: Backend, sandbox?: Backend): Promise<Balancer> {
  const runDir = await mkdtemp(join(tmpdir(), 'licensestore-haproxy-'));
  const started = await startBalancer({
    root: ROOT,
    port: await freePort(),
    apis: new Map([
      ['api-1', one.url],
      ['api-2', two.url],
    ]),
    paypalSandbox: sandbox?.url,
    runDir,
    log: () => {},
  });
  open.push(async () => {
    await started.stop();
    await rm(runDir, { recursive: true, force: true });
  });
  return started;
}

const untilInRotation = (lb: Balancer, names: string[]) =>
  expect.poll(async () => (await lb.inRotation()).sort(), { timeout: ROTATION_MS }).toEqual(names);

interface Answer {
  status: number;
  contentType: string | undefined;
  body: Record<string, string>;
}

/**
 * One request on a connection of its own. On a kept-alive client connection haproxy answers a request whose
 * instance closed without a word by closing that connection too, as the instance would have: what a client does
 * then is the same as after any connection lost.
 */
const call = (url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) =>
  new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'],
          body: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, string>,
        }),
      );
    });
    req.on('error', reject);
    req.end(init.body);
  });

describe('haproxy in front of the api instances', () => {
  it('takes turns between the instances that pass the health check, passing the client and the host on', async () => {
    const lb = await balancer(await backend('api-1'), await backend('api-2'));
    await untilInRotation(lb, ['api-1', 'api-2']);

    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push(
        (await call(`${lb.url}/api/products?page=${i}`, { headers: { 'x-forwarded-for': '203.0.113.9' } }))
          .body,
      );
    }

    const order = answers.map((answer) => answer.backend);
    expect(new Set(order)).toEqual(new Set(['api-1', 'api-2']));
    expect(order[0]).not.toBe(order[1]);
    expect(order.slice(2)).toEqual(order.slice(0, 2));
    expect(await lb.served()).toEqual({ 'api-1': 2, 'api-2': 2 });
    expect(answers[0]).toMatchObject({
      method: 'GET',
      url: '/api/products?page=0',
      host: new URL(lb.url).host,
      forwardedProto: 'http',
    });
    // The client's own address is appended to the one it claimed; the api trusts only the balancer's hop.
    expect(answers[0]?.forwardedFor).toMatch(/^203\.0\.113\.9, (::ffff:)?127\.0\.0\.1$/);
  });

  it('leaves out an instance whose readiness check fails, and takes it back once it passes', async () => {
    const [one, two] = [await backend('api-1'), await backend('api-2')];
    one.ready = false;
    const lb = await balancer(one, two);
    await untilInRotation(lb, ['api-2']);

    for (let i = 0; i < 3; i++) expect((await call(`${lb.url}/`)).body.backend).toBe('api-2');

    one.ready = true;
    await untilInRotation(lb, ['api-1', 'api-2']);
  });

  it('takes an instance that is gone out of rotation, and serves every request from the other meanwhile', async () => {
    const [one, two] = [await backend('api-1'), await backend('api-2')];
    const lb = await balancer(one, two);
    await untilInRotation(lb, ['api-1', 'api-2']);
    await stopServer(one.server);

    // Nothing of these reached the dead instance (its connection was refused): whatever the method, the other one
    // takes them, also before the health check has noticed.
    for (let i = 0; i < 2; i++) {
      expect(await call(`${lb.url}/api/products`)).toMatchObject({ status: 200, body: { backend: 'api-2' } });
      expect(await call(`${lb.url}/paypal/order`, { method: 'POST', body: '{}' })).toMatchObject({
        status: 200,
        body: { backend: 'api-2', body: '{}' },
      });
    }
    await untilInRotation(lb, ['api-2']);
  });

  it('sends a GET that an instance dropped unanswered to the other one, but never a POST', async () => {
    const [one, two] = [await backend('api-1', dropAfterReading), await backend('api-2')];
    const lb = await balancer(one, two);
    await untilInRotation(lb, ['api-1', 'api-2']);

    const gets = [];
    const posts = [];
    for (let i = 0; i < 4; i++) {
      gets.push(await call(`${lb.url}/api/products`));
      posts.push(await call(`${lb.url}/paypal/order/X/capture`, { method: 'POST', body: '{}' }));
    }

    expect(gets.map((answer) => answer.body.backend)).toEqual(['api-2', 'api-2', 'api-2', 'api-2']);
    expect(one.received.GET).toBeGreaterThan(0);
    // A POST the instance may have carried out is answered 502 for its client to decide, and reaches no one else.
    const refused = posts.filter((answer) => answer.status === 502);
    expect(refused.length).toBe(one.received.POST);
    expect(refused.length).toBeGreaterThan(0);
    expect(two.received.POST ?? 0).toBe(posts.length - refused.length);
    expect(refused[0]).toMatchObject({
      contentType: 'application/json; charset=utf-8',
      body: { error: 'the api instance failed before answering' },
    });
  });

  it('answers 503 with a JSON error when no instance is up', async () => {
    const [one, two] = [await backend('api-1'), await backend('api-2')];
    one.ready = false;
    two.ready = false;
    const lb = await balancer(one, two);

    await expect
      .poll(() => call(`${lb.url}/api/products`), { timeout: ROTATION_MS })
      .toEqual({
        status: 503,
        contentType: 'application/json; charset=utf-8',
        body: { error: 'no api instance is up to serve this request: none passes its health check' },
      });
    expect(await lb.inRotation()).toEqual([]);
  });

  it('passes server-sent events on as they are written', async () => {
    let finish: () => void = () => {};
    const events = (name: string) =>
      backend(name, (_backend, _req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
        res.write('data: first\n\n');
        finish = () => res.end('data: last\n\n');
      });
    const lb = await balancer(await events('api-1'), await events('api-2'));
    await untilInRotation(lb, ['api-1', 'api-2']);

    // The first event arrives while the instance still holds the stream open.
    const first = await new Promise<string>((resolve, reject) => {
      const req = request(`${lb.url}/api/orders/1/events`, (res) => {
        expect(res.headers['content-type']).toBe('text/event-stream');
        res.once('data', (chunk: Buffer) => {
          resolve(chunk.toString());
          // The client leaves with the stream still open, as a browser closing the page does.
          req.destroy();
        });
      });
      req.on('error', reject);
      req.end();
    });
    finish();

    expect(first).toBe('data: first\n\n');
  });

  it('sends /paypal-sandbox to the one emulator', async () => {
    const [one, two, sandbox] = [await backend('api-1'), await backend('api-2'), await backend('emulator')];
    const lb = await balancer(one, two, sandbox);
    await untilInRotation(lb, ['api-1', 'api-2', 'paypal-sandbox']);

    expect((await call(`${lb.url}/paypal-sandbox/v2/checkout/orders/X`)).body.backend).toBe('emulator');
    expect((await call(`${lb.url}/paypal/order`)).body.backend).toMatch(/^api-[12]$/);
  });

  it('says why when it cannot start', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    open.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const [one, two] = [await backend('api-1'), await backend('api-2')];
    const runDir = await mkdtemp(join(tmpdir(), 'licensestore-haproxy-'));
    open.push(() => rm(runDir, { recursive: true, force: true }));

    await expect(
      startBalancer({
        root: ROOT,
        port: (taken.address() as AddressInfo).port,
        apis: new Map([
          ['api-1', one.url],
          ['api-2', two.url],
        ]),
        runDir,
        log: () => {},
      }),
    ).rejects.toThrow(/haproxy exited \(1\) while starting:\n(.*\n)*.*cannot bind socket/);
  });

  it('stops with the process that started it, even one killed outright', async () => {
    const [one, two] = [await backend('api-1'), await backend('api-2')];
    const runDir = await mkdtemp(join(tmpdir(), 'licensestore-haproxy-'));
    open.push(() => rm(runDir, { recursive: true, force: true }));
    const port = await freePort();
    const options = JSON.stringify({
      root: ROOT,
      port,
      apis: [
        ['api-1', one.url],
        ['api-2', two.url],
      ],
      runDir,
    });
    const script = `import { startBalancer } from ${JSON.stringify(join(ROOT, 'scripts/lib/haproxy.ts'))};
      const options = JSON.parse(process.argv[1]);
      await startBalancer({ ...options, apis: new Map(options.apis), log: () => {} });
      console.log('listening');
      setInterval(() => {}, 1000);`;
    const parent = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, options],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise((resolve) => parent.stdout.once('data', resolve));
    expect(await accepts(port)).toBe(true);

    parent.kill('SIGKILL');

    await expect.poll(() => accepts(port), { timeout: ROTATION_MS }).toBe(false);
  });
});

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LoadBalancer, type Pool, startLoadBalancer, UPSTREAM_IDLE_MS } from './load-balancer.js';

interface Backend {
  name: string;
  url: string;
  server: Server;
  /** Whether the health checks (/readyz, /healthz) pass. */
  ready: boolean;
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

const open: Array<{ stop: () => Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.stop()));
});

async function backend(name: string, handler: Handler = echo): Promise<Backend> {
  const self: Backend = { name, url: '', server: createServer(), ready: true };
  self.server.on('request', (req, res) => {
    if (req.url === '/readyz' || req.url === '/healthz') {
      res.statusCode = self.ready ? 200 : 503;
      res.end();
    } else handler(self, req, res);
  });
  await new Promise<void>((resolve) => self.server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(self.server.address() as AddressInfo).port}`;
  open.push({
    stop: () =>
      new Promise<void>((resolve) => {
        self.server.closeAllConnections();
        self.server.close(() => resolve());
      }),
  });
  return self;
}

/** Health checks only when a test asks (`checked()`), so what is in rotation never changes behind its back. */
async function balancer(pools: Pool[]): Promise<LoadBalancer> {
  const lb = await startLoadBalancer({ port: 0, host: '127.0.0.1', pools, healthIntervalMs: 3_600_000 });
  open.push({ stop: () => lb.stop(1000) });
  await lb.checked();
  return lb;
}

const apiPool = (...backends: Backend[]): Pool => ({
  upstreams: backends.map(({ name, url }) => ({ name, url })),
  healthPath: '/readyz',
});

const getJson = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as Record<string, string> };
};

describe('the load balancer', () => {
  it('takes turns between the instances that pass the health check, passing the client and the host on', async () => {
    const [one, two] = [await backend('api-1'), await backend('api-2')];
    const lb = await balancer([apiPool(one, two)]);

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await getJson(`${lb.url}/api/products?page=${i}`)).body);

    expect(answers.map((answer) => answer.backend)).toEqual(['api-1', 'api-2', 'api-1', 'api-2']);
    expect(lb.served()).toEqual({ 'api-1': 2, 'api-2': 2 });
    expect(answers[0]).toMatchObject({
      method: 'GET',
      url: '/api/products?page=0',
      host: new URL(lb.url).host,
      forwardedFor: '127.0.0.1',
      forwardedProto: 'http',
    });
  });

  it('appends the peer to an X-Forwarded-For the client sent', async () => {
    const lb = await balancer([apiPool(await backend('api-1'))]);

    const { body } = await getJson(`${lb.url}/`, { headers: { 'x-forwarded-for': '203.0.113.9' } });

    expect(body.forwardedFor).toBe('203.0.113.9, 127.0.0.1');
  });

  it('leaves out an instance whose readiness check fails, and takes it back once it passes', async () => {
    const [one, two] = [await backend('api-1'), await backend('api-2')];
    one.ready = false;
    const lb = await balancer([apiPool(one, two)]);

    expect(lb.up()).toEqual(['api-2']);
    for (let i = 0; i < 3; i++) expect((await getJson(`${lb.url}/`)).body.backend).toBe('api-2');

    one.ready = true;
    await lb.checked();
    expect(lb.up().sort()).toEqual(['api-1', 'api-2']);
  });

  it('streams a request body to the instance', async () => {
    const lb = await balancer([apiPool(await backend('api-1'))]);

    const { body } = await getJson(`${lb.url}/paypal/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '9.99' }),
    });

    expect(body).toMatchObject({ method: 'POST', body: '{"amount":"9.99"}' });
  });

  it('retries a GET on the next instance when the connection to one fails, and takes that one out', async () => {
    const [one, two] = [await backend('api-1'), await backend('api-2')];
    const lb = await balancer([apiPool(one, two)]);
    // Gone between two health checks: the balancer still has it in rotation.
    await new Promise<void>((resolve) => one.server.close(() => resolve()));

    const first = await getJson(`${lb.url}/api/products`);

    expect(first).toMatchObject({ status: 200, body: { backend: 'api-2' } });
    expect(lb.up()).toEqual(['api-2']);
  });

  it('answers a POST whose connection failed with 502 naming the instance, without retrying it', async () => {
    const [one, two] = [await backend('api-1'), await backend('api-2')];
    let posted = 0;
    two.server.prependListener('request', (req) => {
      if (req.method === 'POST') posted++;
    });
    const lb = await balancer([apiPool(one, two)]);
    await new Promise<void>((resolve) => one.server.close(() => resolve()));

    const { status, body } = await getJson(`${lb.url}/paypal/order/X/capture`, {
      method: 'POST',
      body: '{}',
    });

    expect(status).toBe(502);
    expect(body.error).toMatch(/^api-1 failed before answering .*not retried/);
    expect(posted).toBe(0);
  });

  it('sends a GET again on a new connection when the instance closed the kept-alive one, and keeps it in rotation', async () => {
    // The second request on each connection finds it closing, as when an instance's keep-alive ends just then.
    const requestsOn = new WeakMap<object, number>();
    const one = await backend('api-1', (self, req, res) => {
      const count = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, count);
      if (count === 2) req.socket.destroy();
      else echo(self, req, res);
    });
    const lb = await balancer([apiPool(one)]);

    expect(await getJson(`${lb.url}/api/products`)).toMatchObject({
      status: 200,
      body: { backend: 'api-1' },
    });
    expect(await getJson(`${lb.url}/api/products`)).toMatchObject({
      status: 200,
      body: { backend: 'api-1' },
    });
    expect(lb.up()).toEqual(['api-1']);
  });

  it('closes a kept-alive connection to an instance once idle, before the instance would', async () => {
    // The connection the request came on, not the health checks' (fetch keeps its own, idle for 4 s too).
    let closedAt: number | null = null;
    const one = await backend('api-1', (self, req, res) => {
      req.socket.once('close', () => {
        closedAt = Date.now();
      });
      echo(self, req, res);
    });
    one.server.keepAliveTimeout = 60_000;
    const lb = await balancer([apiPool(one)]);
    await getJson(`${lb.url}/api/products`);
    const answered = Date.now();

    await vi.waitFor(() => expect(closedAt).not.toBeNull(), {
      timeout: UPSTREAM_IDLE_MS + 3000,
      interval: 100,
    });
    expect((closedAt as unknown as number) - answered).toBeGreaterThanOrEqual(UPSTREAM_IDLE_MS - 200);
  });

  it('answers 502 with a clear message when no instance is up', async () => {
    const one = await backend('api-1');
    one.ready = false;
    const lb = await balancer([apiPool(one)]);

    const { status, body } = await getJson(`${lb.url}/api/products`);

    expect(status).toBe(502);
    expect(body.error).toBe('no instance is up to serve this request (api-1: none passes /readyz)');
  });

  it('passes server-sent events on as they are written', async () => {
    let finish: () => void = () => {};
    const events = await backend('api-1', (_backend, _req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write('data: first\n\n');
      finish = () => res.end('data: last\n\n');
    });
    const lb = await balancer([apiPool(events)]);

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

  it('sends a path prefix to its own pool', async () => {
    const [api, sandbox] = [await backend('api-1'), await backend('paypal-sandbox')];
    const lb = await balancer([
      apiPool(api),
      {
        prefix: '/paypal-sandbox',
        upstreams: [{ name: 'paypal-sandbox', url: sandbox.url }],
        healthPath: '/healthz',
      },
    ]);

    expect((await getJson(`${lb.url}/paypal-sandbox/v2/checkout/orders/X`)).body.backend).toBe(
      'paypal-sandbox',
    );
    expect((await getJson(`${lb.url}/paypal/order`)).body.backend).toBe('api-1');
  });
});

// The small reverse proxy `npm run start:cluster` puts in front of its api instances (docs/decisions/017).
//
// Round-robin over the upstreams whose health check last passed; a GET or HEAD whose connection fails is tried on
// the next one (nothing of it reached the failed instance's application); bodies and server-sent events stream
// through without buffering. A pool can own a path prefix: the cluster sends /paypal-sandbox to its one emulator.
import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  name: string;
  /** Origin, e.g. http://127.0.0.1:41234. */
  url: string;
}

export interface Pool {
  /** Requests whose path starts with this go to this pool; the pool without one takes the rest. */
  prefix?: string;
  upstreams: readonly Upstream[];
  /** Answering 200 here puts an upstream in rotation (e.g. /readyz). */
  healthPath: string;
}

export interface LoadBalancerOptions {
  port: number;
  /** Defaults to every interface, like the api itself. */
  host?: string;
  pools: readonly Pool[];
  /** Default 1 s. */
  healthIntervalMs?: number;
  log?: (line: string) => void;
}

export interface LoadBalancer {
  url: string;
  /** Names of the upstreams in rotation, for the supervisor's start-up and for tests. */
  up(): string[];
  /** Answers each upstream has given so far, by name. */
  served(): Record<string, number>;
  /** Resolves once a round of health checks has run after this call (the state is then current). */
  checked(): Promise<void>;
  /** Stops taking connections and health checks; resolves once every connection has closed (cut after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

const HEALTH_TIMEOUT_MS = 2_000;
const STOP_GRACE_MS = 20_000;
/** Per RFC 9110 7.6.1, these describe one connection and are not forwarded. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
];
const IDEMPOTENT = new Set(['GET', 'HEAD']);
/**
 * A kept-alive connection to an instance is closed after this long idle: before any instance closes it (Node's
 * default keep-alive is 5 s, the api's 65 s), so the balancer never sends a request down a connection the instance
 * is closing at that moment.
 */
export const UPSTREAM_IDLE_MS = 4_000;
/** A request body up to this size is kept while it streams, so the request can be sent again if it has to be. */
const REPLAYABLE_BODY_BYTES = 1024 * 1024;

/** A request's body as it streamed to the first instance: whole, unless it grew past what is kept. */
interface HeldBody {
  chunks: Buffer[];
  bytes: number;
  complete: boolean;
}

function holdBody(req: IncomingMessage): HeldBody {
  const held: HeldBody = { chunks: [], bytes: 0, complete: false };
  req.on('data', (chunk: Buffer) => {
    held.bytes += chunk.length;
    if (held.bytes <= REPLAYABLE_BODY_BYTES) held.chunks.push(chunk);
    else held.chunks = [];
  });
  req.on('end', () => {
    held.complete = true;
  });
  return held;
}

/** The whole body, when it is complete and was kept. */
const replayable = (held: HeldBody) =>
  held.complete && held.bytes <= REPLAYABLE_BODY_BYTES ? Buffer.concat(held.chunks) : null;

interface Member extends Upstream {
  healthy: boolean;
}

interface PoolState {
  prefix: string;
  members: Member[];
  healthPath: string;
  next: number;
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = (headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const copy = { ...headers };
  for (const name of [...HOP_BY_HOP, ...named]) delete copy[name];
  return copy;
}

function forwardedHeaders(req: IncomingMessage): IncomingHttpHeaders {
  const headers = withoutHopByHop(req.headers);
  const client = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior ? `${prior}, ${client}` : client;
  headers['x-forwarded-proto'] = 'http';
  return headers;
}

function refuse(res: ServerResponse, message: string) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(502, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error: message }));
}

export async function startLoadBalancer(options: LoadBalancerOptions): Promise<LoadBalancer> {
  const log = options.log ?? (() => {});
  const pools: PoolState[] = options.pools
    .map((pool) => ({
      prefix: pool.prefix ?? '',
      healthPath: pool.healthPath,
      members: pool.upstreams.map((upstream) => ({ ...upstream, healthy: false })),
      next: 0,
    }))
    // Longest prefix first, so the first match is the most specific.
    .sort((a, b) => b.prefix.length - a.prefix.length);
  const agent = new Agent({ keepAlive: true, timeout: UPSTREAM_IDLE_MS });
  const served: Record<string, number> = {};

  const setHealth = (member: Member, healthy: boolean, why: string) => {
    if (member.healthy === healthy) return;
    member.healthy = healthy;
    log(`${member.name} ${healthy ? 'is up' : `is out of rotation (${why})`}`);
  };

  const probe = async (pool: PoolState, member: Member) => {
    try {
      const response = await fetch(`${member.url}${pool.healthPath}`, {
        signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
      });
      await response.body?.cancel();
      setHealth(member, response.ok, `${pool.healthPath} answered ${response.status}`);
    } catch (error) {
      setHealth(member, false, error instanceof Error ? error.message : String(error));
    }
  };
  const checkAll = () =>
    Promise.all(pools.flatMap((pool) => pool.members.map((member) => probe(pool, member)))).then(() => {});
  // One round at a time: a slow probe delays the next round instead of piling up beside it.
  let checking = checkAll();
  const nextRound = () => {
    checking = checking.then(checkAll);
    return checking;
  };
  const timer = setInterval(nextRound, options.healthIntervalMs ?? 1000);

  /** The healthy members of the request's pool, starting at the next in turn. */
  const candidates = (path: string): { pool: PoolState; order: Member[] } | null => {
    const pool = pools.find((candidate) => path.startsWith(candidate.prefix));
    if (!pool) return null;
    const healthy = pool.members.filter((member) => member.healthy);
    const start = pool.next++ % Math.max(1, healthy.length);
    return { pool, order: [...healthy.slice(start), ...healthy.slice(0, start)] };
  };

  const forward = (
    req: IncomingMessage,
    res: ServerResponse,
    order: Member[],
    attempt: number,
    body: HeldBody | null,
    fresh = false,
  ) => {
    const member = order[attempt];
    if (!member) {
      refuse(res, `no instance answered (${order.map((m) => m.name).join(', ') || 'none'} tried)`);
      return;
    }
    const target = new URL(req.url ?? '/', member.url);
    const upstream = request(target, {
      method: req.method,
      headers: forwardedHeaders(req),
      // A request sent again after a kept-alive connection failed goes on a connection of its own.
      agent: fresh ? false : agent,
    });
    upstream.on('response', (answer) => {
      served[member.name] = (served[member.name] ?? 0) + 1;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.headers));
      // Server-sent events must reach the browser as they are written, not when a buffer fills.
      res.flushHeaders();
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (error) => {
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      const idempotent = body === null;
      // A kept-alive connection that failed before any answer was closed by the instance, which is not down: the
      // request goes again on a new connection to the same instance when it is safe to, a GET or HEAD, or a request
      // of which no byte went out and whose whole body is kept.
      const unsent = (upstream.socket?.bytesWritten ?? 0) === 0 && body !== null && replayable(body) !== null;
      if (upstream.reusedSocket && !fresh && (idempotent || unsent)) {
        forward(req, res, order, attempt, body, true);
        return;
      }
      // A connection that failed before any answer: the instance is gone or going; take it out of rotation now
      // rather than at the next health check.
      setHealth(member, false, error.message);
      if (idempotent) forward(req, res, order, attempt + 1, null);
      else
        refuse(res, `${member.name} failed before answering (${error.message}); the request was not retried`);
    });
    // The client went away: so does the upstream request (an event stream would otherwise stay open upstream).
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (body === null) upstream.end();
    else if (fresh) upstream.end(replayable(body));
    else req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    const route = candidates(req.url ?? '/');
    if (!route || route.order.length === 0) {
      const names = route?.pool.members.map((member) => member.name).join(', ') ?? 'none';
      refuse(
        res,
        `no instance is up to serve this request (${names}: none passes ${route?.pool.healthPath})`,
      );
      return;
    }
    forward(req, res, route.order, 0, IDEMPOTENT.has(req.method ?? '') ? null : holdBody(req));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    up: () => pools.flatMap((pool) => pool.members.filter((member) => member.healthy).map((m) => m.name)),
    checked: nextRound,
    served: () => ({ ...served }),
    stop: (graceMs = STOP_GRACE_MS) => {
      stopped ??= new Promise<void>((resolve) => {
        clearInterval(timer);
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(cut);
          agent.destroy();
          resolve();
        });
        server.closeIdleConnections();
      });
      return stopped;
    },
  };
}

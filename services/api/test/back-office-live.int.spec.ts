import { createHmac, randomUUID } from 'node:crypto';
import { waitForProjections } from '@licensestore/platform/readmodel';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appendOrder, orderCaptured, orderLine } from '../../../projections/test/support/orders.js';
import { testRedisUrl } from '../../../test/support/database.js';
import { callApi, signIn, startTestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { listeningConnections } from './support/listening.js';
import { openLiveStream } from './support/live-stream.js';
import { openStream } from './support/order-stream.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const PER_SESSION = 2;

const projectorsOf = (data: unknown) => (data as { projectors: string[] }).projectors;

describe('GET /api/admin/live', () => {
  let store: ApiWithReadModel;
  let admin: string;

  const placeOrder = async () => {
    const captured = orderCaptured({
      name: 'Ada Lovelace',
      email: `ada-${randomUUID()}@example.com`,
      lines: [orderLine('Windows 11 Pro', 1, '19.99')],
      capturedAt: new Date().toISOString(),
    });
    const { position } = await appendOrder(store.eventStore, captured.data.orderId, captured);
    const projected = await waitForProjections(store.database.pool, position, {
      projectors: ['orders'],
      timeoutMs: 10_000,
    });
    expect(projected).toBe(true);
    return captured.data.orderId;
  };
  /** Checkpoint notifications as a projection runner sends them, all committed at once. */
  const notifyMoves = async (...projectors: string[]) => {
    const client = await store.database.pool.connect();
    try {
      await client.query('BEGIN');
      for (const [index, projector] of projectors.entries()) {
        await client.query('SELECT pg_notify($1, $2)', ['projection_checkpoint', `${projector} ${index}`]);
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };

  beforeAll(async () => {
    store = await startApiWithReadModel({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
      liveStreams: { heartbeatMs: 200, perSession: PER_SESSION },
    });
    admin = await signIn(store.api.url, ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await store?.stop();
  });

  it('asks visitors to sign in and refuses customers', async () => {
    const customer = await store.api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
    const answers = [
      await callApi(store.api.url, 'GET', '/api/admin/live'),
      await callApi(store.api.url, 'GET', '/api/admin/live', { cookie: customer }),
    ];
    expect(await Promise.all(answers.map(async (each) => [each.status, await each.json()]))).toEqual([
      [401, { error: 'Authentication required' }],
      [403, { error: 'Back-office access required' }],
    ]);
  });

  it('streams to admins and auditors, uncached', async () => {
    const auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
    for (const cookie of [admin, auditor]) {
      const stream = await openLiveStream(store.api.url, cookie);
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.response.headers.get('cache-control')).toBe('no-store');
      stream.leave();
    }
  });

  it('names the orders projector once an order is appended and projected', async () => {
    const stream = await openLiveStream(store.api.url, admin);
    await placeOrder();
    for (;;) {
      if (projectorsOf(await stream.nextEvent('moved')).includes('orders')) break;
    }
    stream.leave();
  });

  it('sends a burst of checkpoint moves as one event, each projector named once', async () => {
    const stream = await openLiveStream(store.api.url, admin);
    const burstIn = async () => {
      for (;;) {
        const named = projectorsOf(await stream.nextEvent('moved')).filter((name) =>
          name.startsWith('burst-'),
        );
        if (named.length > 0) return named;
      }
    };
    await notifyMoves('burst-b', 'burst-a', 'burst-b', 'burst-a', 'burst-b');
    expect(await burstIn()).toEqual(['burst-a', 'burst-b']);
    // Had the burst been split, the rest of it would come before this.
    await notifyMoves('burst-c');
    expect(await burstIn()).toEqual(['burst-c']);
    stream.leave();
  });

  it("listens on the order pages' connection: one LISTEN for the whole api, given back when the last leaves", async () => {
    const orderId = await placeOrder();
    const live = await openLiveStream(store.api.url, admin);
    const orderPage = await openStream(`${store.api.url}/api/orders/${orderId}/events`);
    await orderPage.next();
    expect(await listeningConnections(store.database)).toBe(1);
    orderPage.leave();
    await placeOrder();
    // Still heard after the order page left.
    for (;;) {
      if (projectorsOf(await live.nextEvent('moved')).includes('orders')) break;
    }
    live.leave();
    await vi.waitFor(async () => expect(await listeningConnections(store.database)).toBe(0), {
      timeout: 10_000,
    });
  });

  it('ends its streams when the listening connection breaks, so pages reconnect and read everything again', async () => {
    const stream = await openLiveStream(store.api.url, admin);
    await store.database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'listen projection_checkpoint'`,
    );
    await stream.ended;
    // A new stream listens on a new connection.
    const next = await openLiveStream(store.api.url, admin);
    await placeOrder();
    for (;;) {
      if (projectorsOf(await next.nextEvent('moved')).includes('orders')) break;
    }
    next.leave();
  });

  it('keeps an idle stream open with heartbeats', async () => {
    const stream = await openLiveStream(store.api.url, admin);
    for (;;) {
      const message = await stream.next();
      if ('comment' in message) {
        expect(message.comment).toBe('heartbeat');
        break;
      }
    }
    stream.leave();
  });

  it(`opens at most ${PER_SESSION} streams per session`, async () => {
    const session = await signIn(store.api.url, ADMIN.username, ADMIN.password);
    const open = [await openLiveStream(store.api.url, session), await openLiveStream(store.api.url, session)];
    const refused = await callApi(store.api.url, 'GET', '/api/admin/live', { cookie: session });
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 429,
      body: { error: `Too many open live streams from this session (at most ${PER_SESSION})` },
    });
    // Another session has slots of its own.
    const other = await openLiveStream(store.api.url, admin);
    expect(other.response.status).toBe(200);
    for (const stream of [...open, other]) stream.leave();
  });

  it('says signed-out and ends when its session signs out', async () => {
    const session = await signIn(store.api.url, ADMIN.username, ADMIN.password);
    const stream = await openLiveStream(store.api.url, session);
    expect((await callApi(store.api.url, 'POST', '/api/admin/logout', { cookie: session })).status).toBe(200);
    await stream.nextEvent('signed-out');
    await stream.ended;
  });

  it('says signed-out and ends when its session expires, which its heartbeats do not put off', async () => {
    const cookie = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
    const token = cookie.slice('sid='.length);
    const stream = await openLiveStream(store.api.url, cookie);
    expect(stream.response.status).toBe(200);
    const redis = new Redis(testRedisUrl(), { keyPrefix: store.api.redisKeyPrefix });
    try {
      // A session left unused to its last second: heartbeats come every 200 ms, and renewing would save it.
      const key = `session:${createHmac('sha256', store.api.sessionSecret).update(token).digest('hex')}`;
      expect(await redis.pexpire(key, 1000)).toBe(1);
      await stream.nextEvent('signed-out');
      await stream.ended;
      expect(await redis.exists(key)).toBe(0);
    } finally {
      await redis.quit();
    }
  });

  it('ends its streams when the server shuts down, so the server closes', async () => {
    const second = await startTestApi({ databaseUrl: store.databaseUrl });
    const cookie = await second.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
    const stream = await openLiveStream(second.url, cookie);
    expect(stream.response.status).toBe(200);
    await second.stop();
    await stream.ended;
  });
});

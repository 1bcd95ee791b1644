import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.js';

/** The headers timeout, plus the interval at which the server checks it, plus slack for a loaded machine. */
const CUT_OFF_WITHIN_MS = 15_000 + 5_000 + 5_000;

describe('The api server', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api?.stop());

  it(
    'cuts off a client that trickles its headers in (a slow-loris), answering 408',
    async () => {
      const { hostname, port } = new URL(api.url);
      const socket = connect({ host: hostname, port: Number(port) });
      const startedAt = Date.now();
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
      });
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
      // A header line every second: the connection is never idle, the request never complete.
      const trickle = setInterval(() => socket.write(`X-Slow-${Date.now()}: 1\r\n`), 1000);
      const closedAfter = await new Promise<number>((resolve) => {
        socket.on('close', () => resolve(Date.now() - startedAt));
        socket.on('error', () => {});
      }).finally(() => clearInterval(trickle));

      expect(closedAfter).toBeLessThan(CUT_OFF_WITHIN_MS);
      expect(received).toMatch(/^HTTP\/1\.1 408/);
    },
    CUT_OFF_WITHIN_MS + 10_000,
  );
});

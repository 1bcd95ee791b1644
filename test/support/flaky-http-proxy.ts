import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the proxy treats the next requests: `pass` them on; `delay` answers by `ms`; `lose answers` (the request
 * reaches the server and takes effect, but its answer never comes back: the caller times out, as when a provider
 * is slow or a network drops the reply) to requests whose method and path match `to`; the others pass.
 */
export type ProxyMode =
  | { kind: 'pass' }
  | { kind: 'delay'; ms: number }
  | { kind: 'lose answers'; to: RegExp };

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** An HTTP proxy in front of `target` (an origin) whose behaviour a test switches while requests flow. */
export async function startFlakyHttpProxy(target: string) {
  let mode: ProxyMode = { kind: 'pass' };
  const lost: string[] = [];
  const held = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    const current = mode;
    try {
      const body = await bodyOf(req);
      const headers = Object.entries(req.headers).flatMap(([name, value]) =>
        HOP_BY_HOP.has(name) || value === undefined ? [] : [[name, String(value)] as [string, string]],
      );
      const answer = await fetch(`${target}${req.url ?? '/'}`, {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
      });
      const text = Buffer.from(await answer.arrayBuffer());
      const call = `${req.method} ${req.url}`;
      if (current.kind === 'lose answers' && current.to.test(call)) {
        lost.push(call);
        held.add(res);
        res.once('close', () => held.delete(res));
        return;
      }
      if (current.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, current.ms));
      const passed = [...answer.headers].filter(
        ([name]) => !HOP_BY_HOP.has(name) && name !== 'content-encoding',
      );
      res.writeHead(answer.status, Object.fromEntries(passed)).end(text);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setMode(next: ProxyMode) {
      mode = next;
    },
    /** The requests (method and path) whose answers never reached the caller. */
    lostAnswers: (): readonly string[] => lost,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy on a fixed port in front of a server that may be replaced: clients keep one address while the test
 * restarts the server behind it (on a new port), and lose their connections as they would in a real restart.
 */
export async function startTcpProxy(targetPort: number) {
  let target = targetPort;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    const pair = [client, upstream];
    for (const socket of pair) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        for (const other of pair) {
          other.destroy();
          sockets.delete(other);
        }
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('proxy has no port');

  const dropConnections = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    port: address.port,
    /** Sends new connections to another port and drops the open ones. */
    retarget(port: number) {
      target = port;
      dropConnections();
    },
    close: () =>
      new Promise<void>((resolve) => {
        dropConnections();
        server.close(() => resolve());
      }),
  };
}

export const portOf = (url: string) => Number(new URL(url).port);

import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { RedisNotInstalledError } from '../stack/redis-server.js';
import { killGroup } from './roles.js';
import type { HostMessage, HostOptions, LocalService, SupervisorMessage } from './services-protocol.js';

export interface LocalServices {
  /** The URLs of what was started; rejects with RedisNotInstalledError (install hints as its message) or the failure. */
  ready: Promise<{ databaseUrl: string | undefined; redisUrl: string | undefined }>;
  /** Resolves when the host process has gone, for whatever reason. */
  exited: Promise<void>;
  /** Orderly: Redis, then Postgres (also while they are still starting); kills the group after `graceMs`. */
  stop: (graceMs?: number) => Promise<void>;
  /** Stops the server and starts it again on the same port and data; resolves once it accepts connections. */
  restart: (service: LocalService) => Promise<void>;
  kill: () => void;
}

/** Spawns scripts/lib/services-host.ts in its own process group. */
export function spawnServicesHost(root: string, options: HostOptions): LocalServices {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts/lib/services-host.ts'), JSON.stringify(options)],
    { cwd: root, detached: true, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const kill = () => killGroup(child, 'SIGKILL');
  const stop = async (graceMs = 60_000) => {
    if (child.connected) child.send({ type: 'stop' } satisfies SupervisorMessage);
    else if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(kill, graceMs);
    await exited;
    clearTimeout(timer);
    killGroup(child, 'SIGKILL');
  };
  const ready = new Promise<{ databaseUrl: string | undefined; redisUrl: string | undefined }>(
    (resolve, reject) => {
      child.on('message', (message: HostMessage) => {
        if (message.type === 'ready')
          resolve({ databaseUrl: message.databaseUrl, redisUrl: message.redisUrl });
        else if (message.type === 'failed')
          reject(message.redisMissing ? new RedisNotInstalledError() : new Error(message.message));
      });
      void exited.then(() => reject(new Error('the local services host exited before it was ready')));
    },
  );
  const restart = (service: LocalService) =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (message: HostMessage) => {
        if (message.type !== 'restarted' || message.service !== service) return;
        child.off('message', onMessage);
        if (message.error) reject(new Error(`restarting ${service}: ${message.error}`));
        else resolve();
      };
      child.on('message', onMessage);
      child.send({ type: 'restart', service } satisfies SupervisorMessage);
    });
  // The channel alone keeps no event loop alive: the supervisor lives as long as its children do.
  void ready.then(
    () => child.channel?.unref(),
    () => {},
  );
  return { ready, exited, stop, restart, kill };
}

// The command-line side of `npm start` and `npm run start:cluster`: configuration errors as a list, the checks that
// need no service, signals (Ctrl-C stops in order, a second one forces), and the exit code.
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { type Config, ConfigError, loadConfig } from '@licensestore/platform/config';
import { RedisNotInstalledError } from '../stack/redis-server.js';
import { consoleOutput } from './console-output.js';
import { launchStore, type Topology } from './launch.js';
import { LABEL_WIDTH } from './roles.js';
import { Aborted, Stack } from './stack.js';

const out = consoleOutput();
export const supervisorLog = (line: string) => out(`${'start'.padEnd(LABEL_WIDTH)} | ${line}`);

/** Runs the store until it is stopped; resolves with the process's exit code. */
export async function runStoreCommand(root: string, topology: Topology, command: string): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  const dataDir = resolve(config.DATA_DIR);
  if (!config.REDIS_URL && !redisServerInstalled()) {
    console.error(new RedisNotInstalledError().message);
    return 1;
  }
  if (!(await portIsFree(config.PORT))) {
    console.error(
      `Port ${config.PORT} is in use. Choose another one, e.g. PORT=${config.PORT + 1} ${command}`,
    );
    return 1;
  }
  await mkdir(dataDir, { recursive: true });

  const stack = new Stack(root, supervisorLog, out);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stack.onSignal);
  // A connection of the migrations or the seed that Postgres cuts during a stop must not abort the stop itself.
  process.on('uncaughtException', (error) => {
    if (stack.isStopping) return;
    console.error(error);
    stack.fail('stopping after an unexpected error');
  });
  try {
    await launchStore(stack, { root, config, dataDir, env: process.env, topology });
    supervisorLog(
      `License store running at http://localhost:${config.PORT}${config.PUBLIC_URL ? ` (public URL ${config.PUBLIC_URL})` : ''}`,
    );
    supervisorLog('Ctrl-C to stop');
  } catch (error) {
    // Failures caused by a stop in progress (connections cut as Postgres goes down) are not news.
    if (!(error instanceof Aborted) && !stack.isStopping) {
      console.error(error instanceof Error ? error.message : error);
      stack.exitCode = 1;
      await stack.stop();
    }
  }
  await stack.stopped;
  return stack.exitCode;
}

function redisServerInstalled() {
  return !spawnSync('redis-server', ['--version']).error;
}

/** The api listens on every interface; a port taken on any of them would fail it after a slow start-up. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code !== 'EADDRINUSE' && error.code !== 'EACCES'),
    );
    server.listen({ port, exclusive: true }, () => server.close(() => done(true)));
  });
}

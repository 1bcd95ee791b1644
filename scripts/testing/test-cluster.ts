// `npm run start:cluster` for a test file: a fresh data directory and port, every line its processes print kept for
// the test to read, and everything removed again by stop().
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { conditionWaits } from '../../test/support/condition-waits.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/support/smtp-server.js';
import { type RunningCluster, startCluster } from '../cluster.js';
import { freePort } from '../stack/free-port.js';
import { hasLogged } from './cluster-output.js';
import { type Product, productsInStock } from './shoppers.js';
import { freshEnv } from './store-process.js';

export interface TestCluster {
  cluster: RunningCluster;
  /** The demo catalogue's products in stock. */
  products: Product[];
  /** Every line the supervisor, the load balancer and the instances printed so far. */
  output: string[];
  /** Resolves once instance `label` logs `msg` at or after output line `from`; rejects after `timeoutMs`. */
  untilLogged: (label: string, msg: string, from: number, timeoutMs: number) => Promise<void>;
  /** The cluster's SMTP server: it counts every message it receives, so a doubled e-mail shows. */
  mail: TestSmtpServer;
  stop: () => Promise<void>;
}

const STARTUP_MS = 240_000;

/** One cluster for the test file: started before its first test, stopped after its last; read it inside tests. */
export function clusterForThisFile(): Omit<TestCluster, 'stop'> {
  let started: TestCluster | undefined;
  beforeAll(async () => {
    started = await startTestCluster();
  }, STARTUP_MS);
  afterAll(() => started?.stop(), 60_000);
  const get = () => {
    if (!started) throw new Error('the cluster did not start');
    return started;
  };
  return {
    get cluster() {
      return get().cluster;
    },
    get products() {
      return get().products;
    },
    get output() {
      return get().output;
    },
    untilLogged: (...args) => get().untilLogged(...args),
    get mail() {
      return get().mail;
    },
  };
}

async function startTestCluster(): Promise<TestCluster> {
  const dataDir = await mkdtemp(join(tmpdir(), 'licensestore-cluster-'));
  const output: string[] = [];
  const printed = conditionWaits();
  const untilLogged = (label: string, msg: string, from: number, timeoutMs: number) =>
    printed.until(`${label} to log '${msg}'`, () => hasLogged(output, from, label, msg), timeoutMs);
  const mail = await startTestSmtpServer();
  await mail.open();
  const removeAll = async () => {
    await mail.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    // As root, Postgres runs as the postgres user, which must be able to enter the directory.
    await chmod(dataDir, 0o755);
    const cluster = await startCluster({
      dataDir,
      port: await freePort(),
      env: freshEnv({ SMTP_URL: mail.url }),
      write: (line) => {
        output.push(line);
        printed.changed();
      },
    });
    const stop = async () => {
      await cluster.stop();
      await removeAll();
    };
    try {
      return { cluster, products: await productsInStock(cluster.url), output, untilLogged, mail, stop };
    } catch (error) {
      await stop();
      throw error;
    }
  } catch (error) {
    await removeAll();
    throw error;
  }
}

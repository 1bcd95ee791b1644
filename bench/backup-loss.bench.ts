/**
 * What `npm run backup -- --follow` loses when the whole machine dies: a store takes purchases with the follower
 * shipping parts beside it, then every process that holds the store's record (api, projections, workers, the
 * follower, the PayPal emulator and Postgres itself) is killed with SIGKILL at once, mid-purchase. Postgres is then
 * started again on its data directory (its crash recovery keeps what it committed), and what the log holds beyond the
 * last whole part the follower shipped is counted: the events, the purchases among them, and the seconds of business
 * they span up to the kill.
 *
 *   npm run bench:backup-loss
 * Knobs: BENCH_LOSS_SECONDS (40 of purchases before the kill), BENCH_SHOPPERS (8), BENCH_LOSS_EVERY (5: the
 * follower's --every, in seconds).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordedOrThrow } from '@licensestore/domain/events';
import { openDatabase } from '@licensestore/platform/db';
import { openBareEventStore, openEventStore } from '@licensestore/platform/eventstore';
import { MANIFEST_FILE, readManifest, sinceOf } from '../scripts/backup/format.js';
import { startEmbeddedPostgres } from '../scripts/stack/embedded-postgres.js';
import { spawnBackupScript } from '../test/support/spawned.js';
import { format } from './support/stats.js';
import { buy, createCatalogue, startBenchStore } from './support/store.js';

const SECONDS = Number(process.env.BENCH_LOSS_SECONDS ?? 40);
const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? 8);
const EVERY = Number(process.env.BENCH_LOSS_EVERY ?? 5);
const TARGET_LOSS_SECONDS = 60;
const PASSPHRASE = randomBytes(24).toString('base64url');

const kill = (pid: number | undefined) => {
  try {
    if (pid) process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};

/** Where the last whole part the follower shipped ends: the log position and the events up to it. */
async function lastShipped(folder: string) {
  const names = (await readdir(folder))
    .filter((name) => !name.startsWith('.') && existsSync(join(folder, name, MANIFEST_FILE)))
    .sort();
  const last = names.at(-1);
  if (!last) return { parts: 0, lastPosition: null, count: 0 };
  const since = sinceOf(await readManifest(join(folder, last)));
  return { parts: names.length, lastPosition: since.lastPosition, count: since.count };
}

async function main() {
  console.log(
    `backup-loss bench: ${SHOPPERS} shoppers for ${SECONDS} s, follower every ${EVERY} s, ${cpus().length} CPUs, ` +
      `Node ${process.version}`,
  );
  const work = await mkdtemp(join(tmpdir(), 'backup-loss-'));
  // As root, Postgres runs as the postgres user, which must be able to reach its data directory.
  await chmod(work, 0o755);
  const postgresDir = join(work, 'postgres');
  const password = randomBytes(24).toString('base64url');
  let postgres = await startEmbeddedPostgres(postgresDir, () => {}, password);
  await postgres.createDatabase('store');
  const databaseUrl = postgres.url('store');
  // The bench store makes its own database on the server DATABASE_URL names: this one, whose process this bench kills.
  process.env.DATABASE_URL = databaseUrl;
  const store = await startBenchStore({ workers: true });
  const folder = join(work, 'backups');
  try {
    const database = openDatabase(store.databaseUrl, { max: 2 });
    const eventStore = await openEventStore({ databaseUrl: store.databaseUrl });
    const products = await createCatalogue(eventStore, database, 10);
    await Promise.all([eventStore.close(), database.close()]);

    const follower = spawnBackupScript(
      'backup-cli.ts',
      ['--out', folder, '--follow', '--every', String(EVERY)],
      {
        LOG_LEVEL: 'error',
        DATABASE_URL: store.databaseUrl,
        DATA_DIR: store.dataDir,
        LICENSE_KEY_SECRET: store.licenseKeySecret,
        BACKUP_PASSPHRASE: PASSPHRASE,
      },
    );
    let stopping = false;
    let bought = 0;
    const shoppers = Array.from({ length: SHOPPERS }, async (_, shopper) => {
      for (let i = shopper; !stopping; i += SHOPPERS) {
        await buy(store, products[i % products.length] as (typeof products)[number], i).then(
          () => {
            bought += 1;
          },
          () => {},
        );
      }
    });
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));

    // The machine dies: every process at once, mid-purchase.
    const postmaster = Number((await readFile(join(postgresDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const killedAt = Date.now();
    for (const { pid } of store.counted) if (pid !== process.pid) kill(pid);
    kill(follower.child.pid);
    kill(postmaster);
    stopping = true;
    await Promise.allSettled(shoppers);
    await follower.exited;

    postgres = await startEmbeddedPostgres(postgresDir, () => {}, password);
    const log = await openBareEventStore({
      databaseUrl: postgres.url(new URL(store.databaseUrl).pathname.slice(1)),
    });
    try {
      const shipped = await lastShipped(folder);
      let lost = 0;
      let lostPurchases = 0;
      let firstLostAt: number | null = null;
      for (let page = await log.readAll(shipped.lastPosition, 1000); page.length > 0; ) {
        for (const entry of page) {
          const event = recordedOrThrow(entry);
          lost += 1;
          if (event.type === 'OrderCaptured') lostPurchases += 1;
          firstLostAt ??= event.createdAt.getTime();
        }
        page = await log.readAll(recordedOrThrow(page.at(-1) as (typeof page)[number]).position, 1000);
      }
      const window = firstLostAt === null ? 0 : (killedAt - firstLostAt) / 1000;
      console.log(`  purchases before the kill: ${format(bought)}`);
      console.log(`  parts shipped: ${shipped.parts}, holding ${format(shipped.count)} events`);
      console.log(
        `  lost: ${format(lost)} events (${format(lostPurchases)} purchases) recorded in the last ${format(window, 1)} s ` +
          `before the kill; target ≤ ${TARGET_LOSS_SECONDS} s: ${window <= TARGET_LOSS_SECONDS ? 'met' : 'MISSED'}`,
      );
      console.log(`bench:backup-loss: ${window <= TARGET_LOSS_SECONDS ? 1 : 0} of 1 targets met`);
    } finally {
      await log.close();
    }
  } finally {
    // Every role is dead already; stopping them is a no-op, the database and its server go.
    await store.stop().catch(() => {});
    await postgres.stop().catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}

await main();

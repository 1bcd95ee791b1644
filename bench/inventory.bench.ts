/**
 * A product's license-key inventory after a long history: what its folded state costs in memory, and whether a
 * decision costs more as the history grows. Every key is added, asked for by an order line and sold (a few refunded:
 * returned to stock or revoked), decided and folded from JSON events as a worker reads them; measured at two sizes in
 * the same run.
 *
 *   npm run bench:inventory
 *
 * Knob: BENCH_KEYS (100,000), the smaller size; the larger is three times it. Needs `--expose-gc` (the script has it).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import {
  type InventoryState,
  inventoryDecider,
  type LicenseKeyCommand,
  type LicenseKeyEvent,
} from '@licensestore/domain';
import { format } from './support/stats.js';

const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const IMPORT = 250;
const UNSOLD = 10;
const REFUND_EVERY = 50;
/** A worker keeps up to this many folded events of the streams it decides on (workers/src/jobs/conflicts.ts). */
const KEPT_EVENTS = 1_000_000;
const KEPT_BUDGET_BYTES = 512 * 1024 * 1024;
const MAX_GROWTH = 1.5;

const collect = (globalThis as { gc?: () => void }).gc;
const productId = randomUUID();
const now = new Date().toISOString();
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const sealed = () =>
  `v1.${hex(4)}.${randomBytes(12).toString('base64url')}.${randomBytes(29).toString('base64url')}.${randomBytes(16).toString('base64url')}`;

/** Decides the command and folds what it decided, read back from JSON as the event store hands it out. */
function decide(state: InventoryState, command: LicenseKeyCommand) {
  const stored = JSON.parse(JSON.stringify(inventoryDecider.decide(command, state))) as LicenseKeyEvent[];
  return { state: stored.reduce(inventoryDecider.evolve, state), stored };
}

function history(keys: number) {
  let state = inventoryDecider.initialState;
  let events = 0;
  const step = (command: LicenseKeyCommand) => {
    const next = decide(state, command);
    state = next.state;
    events += next.stored.length;
    return next.stored;
  };
  const started = performance.now();
  for (let added = 0; added < keys; added += IMPORT) {
    step({
      type: 'AddLicenseKeys',
      productId,
      keys: Array.from({ length: IMPORT }, () => ({
        keyId: randomUUID(),
        key: sealed(),
        fingerprint: hex(32),
        tailHash: hex(32),
      })),
      lowStockThreshold: 3,
      now,
    });
    for (let sold = 0; sold < IMPORT - UNSOLD; sold++) {
      const orderId = randomUUID();
      const lineId = randomUUID();
      const requested = step({
        type: 'RequestLicenseKeys',
        productId,
        orderId,
        lineId,
        quantity: 1,
        lowStockThreshold: 3,
        now,
      });
      if (sold % REFUND_EVERY === 0) {
        const assigned = requested.find((event) => event.type === 'LicenceKeysAssigned');
        const keyId = assigned?.type === 'LicenceKeysAssigned' ? assigned.data.keys[0]?.keyId : undefined;
        if (keyId === undefined) throw new Error('the line got no key');
        step({
          type: 'ReleaseLicenseKeys',
          productId,
          orderId,
          lineId,
          keys: [{ keyId, leftStore: sold % (2 * REFUND_EVERY) === 0 }],
          wanted: 0,
          lowStockThreshold: 3,
          now,
        });
      }
    }
  }
  return { state, events, ms: performance.now() - started };
}

function measure(keys: number) {
  collect?.();
  const before = process.memoryUsage().heapUsed;
  const built = history(keys);
  collect?.();
  const bytes = process.memoryUsage().heapUsed - before;
  // Held until measured: the state is what the heap holds.
  if (built.state.available.size + built.state.sold.size < keys) throw new Error('keys went missing');
  return {
    keys,
    events: built.events,
    bytesPerEvent: bytes / built.events,
    usPerKey: (built.ms * 1000) / keys,
  };
}

function main() {
  if (!collect) throw new Error('run with --expose-gc (npm run bench:inventory does)');
  console.log(
    `inventory bench: ${format(KEYS)} and ${format(3 * KEYS)} keys sold from one product, ${cpus().length} CPUs ` +
      `(load average ${loadavg()[0]?.toFixed(1)} at start), Node ${process.version}`,
  );
  const runs = [measure(KEYS), measure(3 * KEYS)];
  for (const run of runs) {
    console.log(
      `${format(run.keys)} keys: ${format(run.events)} events, ${format(run.bytesPerEvent)} bytes of state per event ` +
        `(${format((run.bytesPerEvent * run.events) / run.keys)} a key), ${format(run.usPerKey, 1)} µs a key to decide and fold`,
    );
  }
  const [small, large] = runs as [ReturnType<typeof measure>, ReturnType<typeof measure>];
  const growth = large.usPerKey / small.usPerKey;
  const kept = large.bytesPerEvent * KEPT_EVENTS;
  const targets = [
    {
      line: `cost a key at ${format(large.keys)} against ${format(small.keys)} keys: ${format(growth, 2)}`,
      target: `<= ${MAX_GROWTH}`,
      met: growth <= MAX_GROWTH,
    },
    {
      line: `a worker's kept inventories at ${format(KEPT_EVENTS)} events: ${format(kept / 1024 / 1024)} MB`,
      target: `<= ${format(KEPT_BUDGET_BYTES / 1024 / 1024)} MB`,
      met: kept <= KEPT_BUDGET_BYTES,
    },
  ];
  for (const { line, target, met } of targets)
    console.log(`${line}  [${met ? 'met' : 'NOT met'}: ${target}]`);
  console.log(`bench:inventory: ${targets.filter((t) => t.met).length} of ${targets.length} targets met`);
}

main();

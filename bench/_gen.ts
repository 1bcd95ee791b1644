import { randomBytes } from 'node:crypto';
import { createKeyVault } from '@licensestore/shared/key-vault';
import { scaleHistory } from './support/scale-history.js';
const n = Number(process.env.N ?? 5000);
const h = scaleHistory({ orders: n, keys: 2 * n, products: 200, seed: 1, vault: createKeyVault(randomBytes(32).toString('base64url')) });
const c0 = process.cpuUsage(); const t = performance.now(); let events = 0, appends = 0;
for (const a of h.appends) { events += a.events.length; appends++; }
console.log("cpu ms", (process.cpuUsage(c0).user+process.cpuUsage(c0).system)/1000, n, "orders", events, 'events', appends, 'appends', (performance.now() - t).toFixed(0), 'ms', h.counts);

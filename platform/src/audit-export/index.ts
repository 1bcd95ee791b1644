// The audit export's format, shared by what writes it (the projections' export, the api's evidence pack) and what
// checks it: hash-chained canonical lines, a signed manifest, and the check itself. Node-only (node:crypto).
export * from './check-export.js';
export * from './evidence.js';
export * from './hash-chain.js';
export * from './manifest.js';
export * from './record.js';

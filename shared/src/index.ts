// Browser-safe domain: schemas, deciders, money, errors. Node-only parts live under subpaths
// (@licensestore/shared/eventstore, /db, /config).
export * from './catalogue/index.js';
export type * from './dashboard/index.js';
export * from './errors/index.js';
export * from './license-keys/index.js';
export * from './money/index.js';
export * from './orders/index.js';

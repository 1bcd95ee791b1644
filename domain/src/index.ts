// The browser-safe domain's most used parts, by the package's root: catalogue, orders, license keys, money, errors.
// Everything else is under its own subpath; Node-only code lives in @licensestore/platform.
export * from './catalogue/index.js';
export type * from './dashboard/index.js';
export * from './errors/index.js';
export * from './license-keys/index.js';
export * from './money/index.js';
export * from './orders/index.js';
export * from './risk/index.js';

export * from './mask.js';
export * from './order-as-of.js';
export type * from './views.js';

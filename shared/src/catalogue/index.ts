export * from './decider.js';
export * from './events.js';
export * from './product.js';

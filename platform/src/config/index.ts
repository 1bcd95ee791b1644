export { ConfigError } from './config-error.js';
export * from './environment.js';
export * from './running-store.js';

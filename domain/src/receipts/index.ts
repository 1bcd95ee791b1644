export * from './numbering.js';
export * from './take-number.js';

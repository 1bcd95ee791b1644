import type { JobProcessor } from './processor.js';

/** Every queue this role consumes. Empty until the first side effect (key assignment, delivery e-mail) lands. */
export const processors: readonly JobProcessor[] = [];

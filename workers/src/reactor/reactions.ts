import type { Reactions } from './reactor.js';

/** Which recorded events cause which jobs. Empty until the first side effect (key assignment, delivery e-mail) lands. */
export const reactions: Reactions = {};

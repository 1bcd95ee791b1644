import type { Decider } from '../commands/index.js';
import {
  decideProduct,
  evolveProduct,
  initialProductState,
  type ProductCommand,
  type ProductState,
} from './decider.js';
import { type ProductEvent, parseProductEvent } from './events.js';

export * from './decider.js';
export * from './download-url.js';
export * from './events.js';
export * from './key-format.js';
export * from './product.js';

export const productDecider: Decider<ProductCommand, ProductState, ProductEvent> = {
  initialState: initialProductState,
  decide: decideProduct,
  evolve: evolveProduct,
  parse: parseProductEvent,
};

import { IllegalStateError, NotFoundError } from '../errors/index.js';
import type { ProductEvent } from './events.js';
import type { ProductChanges, ProductFields } from './product.js';

export type ProductCommand =
  | { type: 'CreateProduct'; productId: string; fields: ProductFields; now: string }
  | { type: 'UpdateProduct'; productId: string; changes: ProductChanges; now: string }
  | { type: 'DeleteProduct'; productId: string; now: string };

export type ProductState =
  | { status: 'absent' }
  | { status: 'active'; fields: ProductFields }
  /** A deleted product keeps its key format: paid orders still waiting for its keys can be served. */
  | { status: 'deleted'; keyFormat: string | null };

export const initialProductState: ProductState = { status: 'absent' };

export function evolveProduct(state: ProductState, event: ProductEvent): ProductState {
  switch (event.type) {
    case 'ProductCreated':
      return { status: 'active', fields: event.data.fields };
    case 'ProductUpdated':
      return state.status === 'active'
        ? { status: 'active', fields: { ...state.fields, ...event.data.changes } }
        : state;
    case 'ProductDeleted':
      return {
        status: 'deleted',
        keyFormat: state.status === 'active' ? (state.fields.keyFormat ?? null) : null,
      };
  }
}

const createProduct = (
  cmd: Extract<ProductCommand, { type: 'CreateProduct' }>,
  state: ProductState,
): ProductEvent[] => {
  if (state.status !== 'absent') throw new IllegalStateError(`product ${cmd.productId} already exists`);
  return [
    { type: 'ProductCreated', data: { productId: cmd.productId, fields: cmd.fields, createdAt: cmd.now } },
  ];
};

const updateProduct = (
  cmd: Extract<ProductCommand, { type: 'UpdateProduct' }>,
  state: ProductState,
): ProductEvent[] => {
  if (state.status !== 'active') throw new NotFoundError('Product not found');
  // A field absent from older events (no download, no key format) is the same as one sent as null.
  const changes = Object.fromEntries(
    Object.entries(cmd.changes).filter(
      ([key, value]) => (state.fields[key as keyof ProductFields] ?? null) !== (value ?? null),
    ),
  );
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'ProductUpdated', data: { productId: cmd.productId, changes, updatedAt: cmd.now } }];
};

const deleteProduct = (
  cmd: Extract<ProductCommand, { type: 'DeleteProduct' }>,
  state: ProductState,
): ProductEvent[] => {
  if (state.status !== 'active') throw new NotFoundError('Product not found');
  return [{ type: 'ProductDeleted', data: { productId: cmd.productId, deletedAt: cmd.now } }];
};

export function decideProduct(cmd: ProductCommand, state: ProductState): ProductEvent[] {
  switch (cmd.type) {
    case 'CreateProduct':
      return createProduct(cmd, state);
    case 'UpdateProduct':
      return updateProduct(cmd, state);
    case 'DeleteProduct':
      return deleteProduct(cmd, state);
    default: {
      const exhaustive: never = cmd;
      return exhaustive;
    }
  }
}

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IllegalStateError, NotFoundError } from '../errors/index.js';
import { givenHistory } from '../testing/given.js';
import { evolveProduct, initialProductState } from './decider.js';
import { type ProductEvent, parseProductEvent } from './events.js';
import { productDecider } from './index.js';
import { DEFAULT_KEY_FORMAT, keyFormatOf } from './key-format.js';
import { type ProductFields, productChangesSchema, productFieldsSchema } from './product.js';

const productId = randomUUID();
const createdAt = '2026-01-05T10:00:00.000Z';
const now = '2026-01-06T12:30:00.000Z';

const fields: ProductFields = {
  name: 'Photo Editor Pro',
  description: 'Edit photos like a pro.',
  imageUrl: '/images/photo-editor.png',
  category: 'Graphics',
  platform: 'Windows',
  regularPrice: '49.99',
  salePrice: null,
  featured: false,
  inStock: true,
};

const created: ProductEvent = { type: 'ProductCreated', data: { productId, fields, createdAt } };
const deleted: ProductEvent = { type: 'ProductDeleted', data: { productId, deletedAt: createdAt } };

const given = givenHistory(productDecider);

describe('Product', () => {
  describe('when it does not exist yet', () => {
    it('is created with its fields and the time of the command', () => {
      given()
        .when({ type: 'CreateProduct', productId, fields, now })
        .thenEmits({ type: 'ProductCreated', data: { productId, fields, createdAt: now } });
    });

    it('cannot be updated', () => {
      given()
        .when({ type: 'UpdateProduct', productId, changes: { name: 'New' }, now })
        .thenFails(NotFoundError, 'Product not found');
    });

    it('cannot be deleted', () => {
      given().when({ type: 'DeleteProduct', productId, now }).thenFails(NotFoundError, 'Product not found');
    });
  });

  describe('when it exists', () => {
    it('cannot be created again', () => {
      given(created)
        .when({ type: 'CreateProduct', productId, fields, now })
        .thenFails(IllegalStateError, `product ${productId} already exists`);
    });

    it('records only the fields that actually change', () => {
      given(created)
        .when({
          type: 'UpdateProduct',
          productId,
          changes: { name: fields.name, regularPrice: '39.99', salePrice: '29.99', featured: true },
          now,
        })
        .thenEmits({
          type: 'ProductUpdated',
          data: {
            productId,
            changes: { regularPrice: '39.99', salePrice: '29.99', featured: true },
            updatedAt: now,
          },
        });
    });

    it('records nothing when an update changes nothing', () => {
      given(created)
        .when({ type: 'UpdateProduct', productId, changes: { name: fields.name, inStock: true }, now })
        .thenEmitsNothing();
    });

    it('compares an update with the fields as earlier updates left them', () => {
      const renamed: ProductEvent = {
        type: 'ProductUpdated',
        data: { productId, changes: { name: 'Photo Editor 2' }, updatedAt: createdAt },
      };
      given(created, renamed)
        .when({ type: 'UpdateProduct', productId, changes: { name: 'Photo Editor 2' }, now })
        .thenEmitsNothing();
      given(created, renamed)
        .when({ type: 'UpdateProduct', productId, changes: { name: fields.name }, now })
        .thenEmits({
          type: 'ProductUpdated',
          data: { productId, changes: { name: fields.name }, updatedAt: now },
        });
    });

    it('clears a sale price', () => {
      const onSale: ProductEvent = {
        type: 'ProductUpdated',
        data: { productId, changes: { salePrice: '19.99' }, updatedAt: createdAt },
      };
      given(created, onSale)
        .when({ type: 'UpdateProduct', productId, changes: { salePrice: null }, now })
        .thenEmits({
          type: 'ProductUpdated',
          data: { productId, changes: { salePrice: null }, updatedAt: now },
        });
    });

    it('is deleted', () => {
      given(created)
        .when({ type: 'DeleteProduct', productId, now })
        .thenEmits({ type: 'ProductDeleted', data: { productId, deletedAt: now } });
    });
  });

  describe('when it was deleted', () => {
    it('cannot be updated', () => {
      given(created, deleted)
        .when({ type: 'UpdateProduct', productId, changes: { name: 'Back' }, now })
        .thenFails(NotFoundError, 'Product not found');
    });

    it('cannot be deleted again', () => {
      given(created, deleted)
        .when({ type: 'DeleteProduct', productId, now })
        .thenFails(NotFoundError, 'Product not found');
    });

    it('cannot be created again under the same id', () => {
      given(created, deleted)
        .when({ type: 'CreateProduct', productId, fields, now })
        .thenFails(IllegalStateError, 'already exists');
    });
  });

  describe('evolve', () => {
    it('folds creation and updates into the current fields', () => {
      const state = [
        created,
        { type: 'ProductUpdated', data: { productId, changes: { name: 'A' }, updatedAt: now } },
        { type: 'ProductUpdated', data: { productId, changes: { inStock: false }, updatedAt: now } },
      ].reduce((s, e) => evolveProduct(s, e as ProductEvent), initialProductState);
      expect(state).toEqual({ status: 'active', fields: { ...fields, name: 'A', inStock: false } });
    });

    it('keeps a deleted product deleted whatever follows', () => {
      const update: ProductEvent = {
        type: 'ProductUpdated',
        data: { productId, changes: { name: 'A' }, updatedAt: now },
      };
      expect([created, deleted, update].reduce(evolveProduct, initialProductState)).toEqual({
        status: 'deleted',
        keyFormat: null,
      });
    });
  });

  describe('key format', () => {
    const withFormat: ProductEvent = {
      type: 'ProductCreated',
      data: { productId, fields: { ...fields, keyFormat: 'XXXX-XXXX' }, createdAt },
    };

    it('is recorded with the product and changed by an update', () => {
      given()
        .when({ type: 'CreateProduct', productId, fields: { ...fields, keyFormat: 'XXXX-XXXX' }, now })
        .thenEmits({ ...withFormat, data: { ...withFormat.data, createdAt: now } });
      given(withFormat)
        .when({ type: 'UpdateProduct', productId, changes: { keyFormat: 'XXXXXXXX' }, now })
        .thenEmits({
          type: 'ProductUpdated',
          data: { productId, changes: { keyFormat: 'XXXXXXXX' }, updatedAt: now },
        });
    });

    it('is the default for a product recorded without one, and for one whose format was cleared', () => {
      const old = parseProductEvent('ProductCreated', created.data) as ProductEvent;
      const state = evolveProduct(initialProductState, old);
      expect(state.status === 'active' && keyFormatOf(state.fields)).toBe(DEFAULT_KEY_FORMAT);
      const cleared: ProductEvent = {
        type: 'ProductUpdated',
        data: { productId, changes: { keyFormat: null }, updatedAt: now },
      };
      const after = [withFormat, cleared].reduce(evolveProduct, initialProductState);
      expect(after.status === 'active' && keyFormatOf(after.fields)).toBe(DEFAULT_KEY_FORMAT);
    });

    it('is not recorded as changed when an edit sends none for a product recorded without one', () => {
      given(created)
        .when({ type: 'UpdateProduct', productId, changes: { keyFormat: null, downloadUrl: null }, now })
        .thenEmitsNothing();
    });

    it('stays known once the product is deleted, for keys owed to its paid orders', () => {
      expect([withFormat, deleted].reduce(evolveProduct, initialProductState)).toEqual({
        status: 'deleted',
        keyFormat: 'XXXX-XXXX',
      });
    });

    it('is read from a stored event', () => {
      expect(parseProductEvent('ProductCreated', withFormat.data)).toEqual(withFormat);
    });

    it('takes only groups of X separated by single hyphens from an admin, empty meaning the default', () => {
      const format = (keyFormat: unknown) => productChangesSchema.safeParse({ keyFormat });
      expect(format(' XXXX-XXXX ').data).toEqual({ keyFormat: 'XXXX-XXXX' });
      expect(format('').data).toEqual({ keyFormat: null });
      for (const bad of ['XXXX--XXXX', '-XXXX', 'XXXX-', '[A-Z]{5}', '(a+)+$', 'xxxx', 'X'.repeat(101)]) {
        expect(format(bad).success).toBe(false);
      }
      expect(productFieldsSchema.parse(fields).keyFormat).toBeUndefined();
    });
  });

  describe('stored events', () => {
    it('are validated when read', () => {
      expect(parseProductEvent('ProductCreated', created.data)).toEqual(created);
      expect(() =>
        parseProductEvent('ProductCreated', { productId, fields: { ...fields, regularPrice: 'free' } }),
      ).toThrow();
    });

    it('of other types are not ours', () => {
      expect(parseProductEvent('OrderCaptured', {})).toBeNull();
    });
  });
});

import { productChangesSchema, productFieldsSchema, ValidationError } from '@licensestore/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseRequest } from './validation.js';

const fields = {
  name: 'Office 2024',
  description: 'Suite',
  imageUrl: '/images/products/office.svg',
  category: 'Office',
  platform: 'Windows',
  regularPrice: '19.99',
};

const messageFor = (schema: z.ZodType, input: unknown) => {
  try {
    parseRequest(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).message;
  }
  throw new Error('expected the input to be refused');
};

describe('parseRequest', () => {
  it('returns the parsed value', () => {
    expect(parseRequest(productFieldsSchema, { ...fields, regularPrice: '5' })).toMatchObject({
      regularPrice: '5.00',
      salePrice: null,
      featured: false,
    });
  });

  describe('when the input does not fit', () => {
    it.each([
      [{ ...fields, name: undefined }, 'name: is required'],
      [{ ...fields, regularPrice: 'abc' }, 'regularPrice: must be an amount like 19.99'],
      [{ ...fields, salePrice: '1.999' }, 'salePrice: must be an amount like 19.99'],
      [{ ...fields, salePrice: 42 }, 'salePrice: must be a string or null, not number'],
      [{ ...fields, featured: 'yes' }, 'featured: must be a boolean, not string'],
      [{ ...fields, name: 'x'.repeat(201) }, 'name: must be at most 200 characters'],
      [
        { ...fields, name: null, inStock: 1 },
        'name: must be a string, not null; inStock: must be a boolean, not number',
      ],
      [[fields], 'Request body must be a JSON object'],
      [undefined, 'Request body must be a JSON object'],
    ])('names the field: %j', (input, message) => {
      expect(messageFor(productFieldsSchema, input)).toBe(message);
    });

    it('says when a change changes nothing', () => {
      expect(messageFor(productChangesSchema, {})).toBe('at least one field must change');
    });

    it('names nested fields by their path', () => {
      const schema = z.object({ items: z.array(z.object({ quantity: z.number() })) });
      expect(messageFor(schema, { items: [{ quantity: 'two' }] })).toBe(
        'items.0.quantity: must be a number, not string',
      );
    });
  });
});

import { describe, expect, it } from 'vitest';
import { EMPTY_PRODUCT_FORM, productPayload, validateProductForm } from './product-form-values';

const complete = {
  ...EMPTY_PRODUCT_FORM,
  name: ' Office 2024 ',
  category: 'Office',
  description: 'Word, Excel, PowerPoint.',
  regularPrice: '249.99',
  platform: 'Windows',
  imageUrl: '/objects/uploads/3f2b8c1e-9d4a-4c7b-8e6f-1a2b3c4d5e6f',
};

describe('the product form', () => {
  it('requires name, category, description, regular price, platform and image URL', () => {
    expect(Object.keys(validateProductForm(EMPTY_PRODUCT_FORM)).sort()).toEqual(
      ['category', 'description', 'imageUrl', 'name', 'platform', 'regularPrice'].sort(),
    );
    expect(validateProductForm(complete)).toEqual({});
  });

  it('accepts prices with up to two decimals only', () => {
    expect(validateProductForm({ ...complete, regularPrice: '19.999' }).regularPrice).toBe(
      'Enter a price like 19.99',
    );
    expect(validateProductForm({ ...complete, salePrice: '-1' }).salePrice).toBeDefined();
    expect(validateProductForm({ ...complete, salePrice: '199' })).toEqual({});
  });

  it('sends prices as strings, an empty sale price as null, text trimmed', () => {
    expect(productPayload({ ...complete, salePrice: '  ' })).toMatchObject({
      name: 'Office 2024',
      regularPrice: '249.99',
      salePrice: null,
    });
    expect(productPayload({ ...complete, salePrice: '199.5' }).salePrice).toBe('199.5');
  });

  it('takes an optional official download URL (https only) and installation notes', () => {
    expect(validateProductForm({ ...complete, downloadUrl: 'https://www.norton.com/setup' })).toEqual({});
    expect(validateProductForm({ ...complete, downloadUrl: 'http://www.norton.com/setup' })).toEqual({
      downloadUrl: 'Download URL must start with https:// (not http:)',
    });
    expect(validateProductForm({ ...complete, downloadUrl: 'javascript:alert(1)' }).downloadUrl).toBe(
      'Download URL must start with https:// (not javascript:)',
    );
    expect(validateProductForm({ ...complete, installationNotes: 'x'.repeat(1001) })).toEqual({
      installationNotes: 'Installation notes must be at most 1000 characters',
    });
    expect(productPayload(complete)).toMatchObject({ downloadUrl: null, installationNotes: null });
    expect(
      productPayload({
        ...complete,
        downloadUrl: ' https://www.norton.com/setup ',
        installationNotes: ' Sign in.\nEnter the key. ',
      }),
    ).toMatchObject({
      downloadUrl: 'https://www.norton.com/setup',
      installationNotes: 'Sign in.\nEnter the key.',
    });
  });

  it('takes an optional key format of X groups and hyphens, sent as null when empty', () => {
    expect(validateProductForm({ ...complete, keyFormat: ' XXXX-XXXX ' })).toEqual({});
    expect(validateProductForm({ ...complete, keyFormat: '[A-Z]{5}' })).toEqual({
      keyFormat: 'Key format must be groups of X separated by single hyphens, like XXXX-XXXX-XXXX',
    });
    expect(productPayload(complete).keyFormat).toBeNull();
    expect(productPayload({ ...complete, keyFormat: ' XXXX-XXXX ' }).keyFormat).toBe('XXXX-XXXX');
  });
});

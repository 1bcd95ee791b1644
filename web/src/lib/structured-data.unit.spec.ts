import { describe, expect, it } from 'vitest';
import { brandOf } from './structured-data';

describe('brandOf', () => {
  it('derives the brand from the category as the spec says', () => {
    expect(brandOf('Office Suites')).toBe('Microsoft');
    expect(brandOf('Operating Systems')).toBe('Generic');
    expect(brandOf('Windows')).toBe('Microsoft');
    expect(brandOf('Norton Antivirus')).toBe('Norton');
    expect(brandOf('Adobe Creative Cloud')).toBe('Adobe');
    expect(brandOf('Antivirus')).toBe('Generic');
  });
});

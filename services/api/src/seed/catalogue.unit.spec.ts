import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { downloadUrlProblem, productFieldsSchema, toCents } from '@licensestore/domain';
import { describe, expect, it } from 'vitest';
import { renderBoxArt } from './box-art.js';
import { demoProducts, productImageUrl } from './catalogue.js';
import { demoProductId } from './index.js';
import { demoTestimonials, testimonialsAsOf } from './testimonials.js';

const publicDir = fileURLToPath(new URL('../../public', import.meta.url));

describe('demo catalogue', () => {
  it('has at least 16 products across the four storefront categories', () => {
    expect(demoProducts.length).toBeGreaterThanOrEqual(16);
    expect(new Set(demoProducts.map((p) => p.fields.category))).toEqual(
      new Set(['Office Suites', 'Operating Systems', 'Antivirus', 'Creative Tools']),
    );
  });

  it('features at least 8 products, so the home page grid is full', () => {
    expect(demoProducts.filter((p) => p.fields.featured).length).toBeGreaterThanOrEqual(8);
  });

  it('puts some products on sale, always below the regular price', () => {
    const onSale = demoProducts.filter((p) => p.fields.salePrice !== null);
    expect(onSale.length).toBeGreaterThanOrEqual(4);
    for (const { fields } of onSale)
      expect(toCents(fields.salePrice ?? '')).toBeLessThan(toCents(fields.regularPrice));
  });

  it('has exactly one product out of stock', () => {
    expect(demoProducts.filter((p) => !p.fields.inStock)).toHaveLength(1);
  });

  it('passes the same validation as an admin-created product', () => {
    for (const product of demoProducts) {
      const fields = { ...product.fields, imageUrl: productImageUrl(product.slug) };
      expect(productFieldsSchema.parse(fields)).toEqual(fields);
    }
  });

  it("links every product to its vendor's official download page, with installation notes", () => {
    for (const { fields } of demoProducts) {
      expect(fields.downloadUrl, fields.name).toMatch(/^https:\/\/[a-z.]+\.(com)\//);
      expect(downloadUrlProblem(fields.downloadUrl ?? ''), fields.name).toBeNull();
      expect(fields.installationNotes?.length, fields.name).toBeGreaterThan(40);
    }
  });

  it('gives every product its own stable id and slug', () => {
    const ids = demoProducts.map(demoProductId);
    expect(new Set(ids).size).toBe(demoProducts.length);
    expect(new Set(demoProducts.map((p) => p.slug)).size).toBe(demoProducts.length);
    expect(demoProductId({ slug: 'windows-11-pro' })).toBe(demoProductId({ slug: 'windows-11-pro' }));
    expect(demoProductId({ slug: 'windows-11-pro' })).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('ships the committed box art that the generator renders (npm run images:products)', async () => {
    for (const product of demoProducts) {
      const file = `${publicDir}${productImageUrl(product.slug)}`;
      expect(await readFile(file, 'utf8'), file).toBe(renderBoxArt(product));
    }
  });

  it('gives every product box art of its own colour, so boxes of one family tell apart', () => {
    const colours = demoProducts.map((product) => product.art.colour.toUpperCase());
    expect(new Set(colours).size).toBe(demoProducts.length);
  });

  it('draws the box on a transparent ground, with no backdrop behind it', () => {
    for (const product of demoProducts) {
      const svg = renderBoxArt(product);
      expect(svg, product.slug).not.toMatch(/<rect width="600" height="600"/);
      expect(svg, product.slug).not.toContain('backdrop');
    }
  });

  it('escapes product names in the box art', () => {
    const [first] = demoProducts;
    if (!first) throw new Error('no demo products');
    const svg = renderBoxArt({ ...first, fields: { ...first.fields, name: 'Tom & Jerry <Pro> "2024"' } });
    expect(svg).toContain('Tom &amp; Jerry &lt;Pro&gt; &quot;2024&quot;');
    expect(svg).not.toContain('Tom & Jerry');
  });
});

describe('demo testimonials', () => {
  it('fills the six cards of the home page with valid ratings', () => {
    expect(demoTestimonials.length).toBeGreaterThanOrEqual(6);
    for (const t of demoTestimonials) {
      expect(t.rating).toBeGreaterThanOrEqual(1);
      expect(t.rating).toBeLessThanOrEqual(5);
    }
    expect(new Set(demoTestimonials.map((t) => t.id)).size).toBe(demoTestimonials.length);
  });

  it('dates them in the six months before the seed, none in the future', () => {
    const dates = testimonialsAsOf(new Date('2026-03-10T08:00:00Z')).map((t) => t.date);
    for (const date of dates) {
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(date >= '2025-09-10' && date <= '2026-03-10').toBe(true);
    }
    expect(dates.at(-1)).toBe('2026-03-01');
  });
});

// Writes the demo products' box art to services/api/public/images/products/<slug>.svg.
// Run after changing the demo catalogue: `npm run images:products`.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderBoxArt } from '../services/api/src/seed/box-art.js';
import { demoProducts } from '../services/api/src/seed/catalogue.js';

export const productImagesDir = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'services',
  'api',
  'public',
  'images',
  'products',
);

await mkdir(productImagesDir, { recursive: true });
for (const product of demoProducts) {
  await writeFile(join(productImagesDir, `${product.slug}.svg`), renderBoxArt(product));
}
console.log(`wrote ${demoProducts.length} images to ${productImagesDir}`);

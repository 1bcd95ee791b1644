export interface Download {
  /** Whose official page the link goes to; null for the store's own product page. */
  vendor: string | null;
  url: string;
}

/** Vendors by category text, as the spec derives a product's brand: Office or Windows, Norton, Adobe. */
const VENDORS: readonly { pattern: RegExp; vendor: string; url: string }[] = [
  { pattern: /office|windows/i, vendor: 'Microsoft', url: 'https://www.microsoft.com/software-download' },
  { pattern: /norton/i, vendor: 'Norton', url: 'https://www.norton.com/setup' },
  { pattern: /adobe/i, vendor: 'Adobe', url: 'https://www.adobe.com/downloads.html' },
];

/** The official download page for a product's category, or the product's page in the store (`publicUrl` has no trailing slash). */
export function downloadFor(category: string | null, productId: string, publicUrl: string): Download {
  const known = category === null ? undefined : VENDORS.find(({ pattern }) => pattern.test(category));
  if (known) return { vendor: known.vendor, url: known.url };
  return { vendor: null, url: `${publicUrl}/product/${encodeURIComponent(productId)}` };
}

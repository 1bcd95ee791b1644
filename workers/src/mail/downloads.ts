import { downloadUrlProblem } from '@licensestore/domain';

export interface Download {
  url: string;
  /** True for the product's official installer link; false for the fallback, its page in the store. */
  official: boolean;
  /** The product's installation notes as the admin wrote them (several lines); null when it has none. */
  notes: string | null;
}

/** What the delivery e-mail needs of a product; null once it is deleted (or never was in the catalogue). */
export interface ProductDownload {
  downloadUrl: string | null;
  installationNotes: string | null;
}

/**
 * The product's official download link and notes, or its page in the store when it has no link (`publicUrl` has no
 * trailing slash). The link is checked again: a buyer follows it from an e-mail, so only an https URL goes out.
 */
export function downloadFor(product: ProductDownload | null, productId: string, publicUrl: string): Download {
  const notes = product?.installationNotes ?? null;
  const url = product?.downloadUrl;
  if (url && downloadUrlProblem(url) === null) return { url, official: true, notes };
  return { url: `${publicUrl}/product/${encodeURIComponent(productId)}`, official: false, notes };
}

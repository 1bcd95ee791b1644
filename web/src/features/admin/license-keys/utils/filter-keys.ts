import type { LicenseKeyView } from '../api/get-license-keys';

export type StatusFilter = 'all' | 'available' | 'assigned';

export interface KeyFilter {
  productId: string | 'all';
  status: StatusFilter;
}

/** Rows per page: the demo store alone has 340 keys. */
export const PAGE_SIZE = 25;

export const matchesFilter =
  ({ productId, status }: KeyFilter) =>
  (key: LicenseKeyView) =>
    (productId === 'all' || key.productId === productId) &&
    (status === 'all' || key.assigned === (status === 'assigned'));

/** The page `page` (0-based) of the rows, clamped to the last page when the rows shrank under it. */
export function pageOf<T>(rows: T[], page: number): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const shown = Math.min(page, pages - 1);
  return { rows: rows.slice(shown * PAGE_SIZE, (shown + 1) * PAGE_SIZE), page: shown, pages };
}

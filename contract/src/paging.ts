// Keyset-paged lists of the back office: the answer's shape and the query's bounds.

/** Rows per page unless the request asks for another number. */
export const DEFAULT_PAGE_SIZE = 25;
/** The most rows one request may ask for. */
export const MAX_PAGE_SIZE = 100;

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * One page of a list in its sort order. Each cursor is opaque: it names the row the next (or previous) page starts
 * after, so rows added or removed meanwhile never shift a page. A null cursor means nothing lies that way.
 */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  prevCursor: string | null;
}

import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type Page,
  SORT_DIRECTIONS,
  type SortDirection,
} from '@licensestore/contract/paging';
import { ValidationError } from '@licensestore/domain';
import { unstorableCharacter } from '@licensestore/domain/text';
import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import { isUuid } from './ids.js';
import { parseRequest } from './validation.js';

/** What a sort column holds, so a cursor's value is checked before it reaches Postgres. */
export type KeyType = 'timestamp' | 'text' | 'integer' | 'decimal' | 'uuid';

/** A column a list is ordered by, and how to read its value off a row the query answered. */
export interface SortKey<Row> {
  /** As kysely names it (`orders.created_at`); NOT NULL, with an index on (column, id column). */
  column: string;
  type: KeyType;
  of: (row: Row) => unknown;
}

/**
 * How a list pages: the sorts a request may name, the default one, and the unique column that breaks ties (so a
 * cursor names exactly one row, and rows with equal sort values are neither repeated nor skipped).
 */
export interface Keyset<Row, S extends string> {
  sorts: Record<S, SortKey<Row>>;
  id: SortKey<Row>;
  defaultSort: S;
  defaultDir: SortDirection;
}

/** Where a page starts: after (or, going back, before) the row with these sort and id values, or at it. */
export interface CursorPosition {
  value: string | number;
  id: string;
  before: boolean;
  inclusive: boolean;
}

export interface PageParams<S extends string> {
  limit: number;
  sort: S;
  dir: SortDirection;
  cursor: CursorPosition | null;
}

const cursorSchema = z.object({
  s: z.string(),
  d: z.enum(SORT_DIRECTIONS),
  k: z.union([z.string().max(1000), z.number()]),
  i: z.string().max(1000),
  b: z.boolean(),
  n: z.boolean(),
});

/** What a cursor mints: `Date#toISOString` of a millisecond-precise instant from year 1 on. */
const ISO_TIMESTAMP = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * A cursor's timestamp is one Postgres reads as the same instant JavaScript does: it must come back unchanged from
 * a round trip through a Date (so no 30 February, 29 February of a common year or 24:00, which JavaScript moves to
 * another day and Postgres refuses or reads otherwise), and name a year from 1 on (Postgres has no year 0; ISO's
 * 0000 is its 1 BC). Fractions stop at milliseconds, where JavaScript would drop digits Postgres keeps.
 */
function isCursorTimestamp(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const parts = ISO_TIMESTAMP.exec(value);
  const instant = Date.parse(value);
  if (!parts || Number(parts[1]) < 1 || Number.isNaN(instant)) return false;
  const fraction = (parts[2] ?? '.').padEnd(4, '0');
  return new Date(instant).toISOString() === `${value.slice(0, 19)}${fraction}Z`;
}

const VALID: Record<KeyType, (value: unknown) => boolean> = {
  timestamp: isCursorTimestamp,
  text: (value) => typeof value === 'string' && unstorableCharacter(value) === null,
  integer: (value) => Number.isSafeInteger(value),
  decimal: (value) => typeof value === 'string' && /^-?\d{1,16}(\.\d{1,6})?$/.test(value),
  uuid: isUuid,
};

/** Timestamps travel as ISO text (projected timestamps have millisecond precision, so the text is exact). */
const cursorValue = (value: unknown): string | number =>
  value instanceof Date ? value.toISOString() : typeof value === 'number' ? value : String(value);

const encodeCursor = (sort: string, dir: SortDirection, position: CursorPosition): string =>
  Buffer.from(
    JSON.stringify({
      s: sort,
      d: dir,
      k: position.value,
      i: position.id,
      b: position.before,
      n: position.inclusive,
    }),
  ).toString('base64url');

const STALE_CURSOR = 'cursor: is not a page of this list; start again from the first page';

function decodeCursor<S extends string>(
  keyset: Keyset<unknown, S>,
  text: string,
  sort: S,
  dir: SortDirection,
): CursorPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new ValidationError(STALE_CURSOR);
  }
  const parsed = cursorSchema.safeParse(decoded);
  if (!parsed.success) throw new ValidationError(STALE_CURSOR);
  const { s, d, k, i, b, n } = parsed.data;
  if (s !== sort || d !== dir) {
    throw new ValidationError(
      'cursor: belongs to another sort order; start again from the first page of this one',
    );
  }
  if (!VALID[keyset.sorts[sort].type](k) || !VALID[keyset.id.type](i))
    throw new ValidationError(STALE_CURSOR);
  return { value: k, id: i, before: b, inclusive: n };
}

/**
 * Reads `limit` (default 25, at most 100), `sort`, `dir` and `cursor` from a request's query string; anything
 * malformed, a sort the list lacks or a cursor of another list or sort order is a 400 naming the parameter.
 * Other parameters (the list's filters) are left for the route's own schema.
 */
export function parsePageQuery<S extends string>(keyset: Keyset<never, S>, query: unknown): PageParams<S> {
  const sorts = Object.keys(keyset.sorts) as [S, ...S[]];
  const schema = z.object({
    limit: z.coerce
      .number({ error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .int({ error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .min(1, { error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .max(MAX_PAGE_SIZE, { error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .default(DEFAULT_PAGE_SIZE),
    sort: z.enum(sorts, { error: `must be one of ${sorts.join(', ')}` }).default(keyset.defaultSort),
    dir: z.enum(SORT_DIRECTIONS, { error: 'must be asc or desc' }).default(keyset.defaultDir),
    cursor: z.string().max(2000, { error: STALE_CURSOR }).optional(),
  });
  const { limit, sort, dir, cursor } = parseRequest(schema, query);
  return {
    limit,
    sort: sort as S,
    dir,
    cursor: cursor ? decodeCursor(keyset as Keyset<unknown, S>, cursor, sort as S, dir) : null,
  };
}

/** The query one page runs (EXPLAIN it to see which index answers it). */
export function keysetQuery<DB, TB extends keyof DB, Row, S extends string>(
  query: SelectQueryBuilder<DB, TB, Row>,
  keyset: Pick<Keyset<Row, S>, 'sorts' | 'id'>,
  page: PageParams<S>,
): SelectQueryBuilder<DB, TB, Row> {
  const key = keyset.sorts[page.sort];
  const { cursor } = page;
  const descending = (page.dir === 'desc') !== (cursor?.before ?? false);
  const order = descending ? 'desc' : 'asc';
  let paged = query;
  if (cursor) {
    const operator = `${descending ? '<' : '>'}${cursor.inclusive ? '=' : ''}`;
    const past = sql<SqlBool>`(${sql.ref(key.column)}, ${sql.ref(keyset.id.column)}) ${sql.raw(
      operator,
    )} (${cursor.value}, ${cursor.id})`;
    paged = paged.where(() => past);
  }
  return paged
    .orderBy(sql.ref(key.column), order)
    .orderBy(sql.ref(keyset.id.column), order)
    .limit(page.limit + 1);
}

/**
 * Runs `query` for one page: only rows past the cursor (a row comparison on (sort column, id) that an index on
 * those two columns answers directly, in either direction), ordered by the sort with the id breaking ties, one row
 * more than the page to learn whether another follows. Going back reads the other way and turns the rows round.
 */
export async function keysetPage<DB, TB extends keyof DB, Row, S extends string>(
  query: SelectQueryBuilder<DB, TB, Row>,
  keyset: Keyset<Row, S>,
  page: PageParams<S>,
): Promise<Page<Row>> {
  const key = keyset.sorts[page.sort];
  const { cursor } = page;
  const backwards = cursor?.before ?? false;
  const rows = await keysetQuery(query, keyset, page).execute();
  const more = rows.length > page.limit;
  // Going back reached the start (rows were removed, or the page before was short): that is the first page.
  if (backwards && !more) return keysetPage(query, keyset, { ...page, cursor: null });
  const items = rows.slice(0, page.limit);
  if (backwards) items.reverse();

  const at = (row: Row, before: boolean): string =>
    encodeCursor(page.sort, page.dir, {
      value: cursorValue(key.of(row)),
      id: String(keyset.id.of(row)),
      before,
      inclusive: false,
    });
  const first = items[0];
  const last = items[items.length - 1];
  // Going back found more rows than a page, so the page is full and rows lie on both sides.
  if (backwards) return { items, prevCursor: at(first as Row, true), nextCursor: at(last as Row, false) };
  // An empty page past a cursor still leads back: to the rows up to and including the cursor's row.
  const back = first
    ? at(first, true)
    : cursor && encodeCursor(page.sort, page.dir, { ...cursor, before: true, inclusive: true });
  return { items, prevCursor: cursor ? back : null, nextCursor: more && last ? at(last, false) : null };
}

/** The same page with each row turned into what the API answers. */
export const mapPage = <Row, View>(page: Page<Row>, view: (row: Row) => View): Page<View> => ({
  ...page,
  items: page.items.map(view),
});

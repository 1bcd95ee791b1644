import { useMemo } from 'react';
import { useSearchParams } from 'wouter';

/** The URL parameter holding the page's cursor; every other parameter is a filter or the sort. */
export const CURSOR_PARAM = 'cursor';

export interface ListSearch {
  /** Every parameter of the URL's query string: filters, `sort`, `dir` and `cursor`. */
  params: Readonly<Record<string, string>>;
  /** Sets filters or the sort (an empty or null value removes it) and goes back to the first page. */
  update: (changes: Readonly<Record<string, string | null | undefined>>) => void;
  /** Shows the page a cursor names; null is the first page. */
  goTo: (cursor: string | null) => void;
}

/**
 * A list screen's filters, sort and page, kept in the URL's query string: a reload, a shared link and the browser's
 * back button all show the same page. Each change is a new history entry.
 */
export function useListSearch(): ListSearch {
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => Object.fromEntries(search), [search]);
  return useMemo(
    () => ({
      params,
      update: (changes) =>
        setSearch((previous) => {
          const next = new URLSearchParams(previous);
          next.delete(CURSOR_PARAM);
          for (const [name, value] of Object.entries(changes)) {
            if (value) next.set(name, value);
            else next.delete(name);
          }
          return next;
        }),
      goTo: (cursor) =>
        setSearch((previous) => {
          const next = new URLSearchParams(previous);
          if (cursor) next.set(CURSOR_PARAM, cursor);
          else next.delete(CURSOR_PARAM);
          return next;
        }),
    }),
    [params, setSearch],
  );
}

/**
 * What a list's "Clear filters" does: removes these filters and goes back to the first page. Undefined while none
 * of them is set, so the list can tell "nothing matches" from "nothing yet".
 */
export const clearFilters = (search: ListSearch, names: readonly string[]) =>
  names.some((name) => Boolean(search.params[name]))
    ? () => search.update(Object.fromEntries(names.map((name) => [name, null])))
    : undefined;

import type { Page } from '@licensestore/contract/paging';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button } from './button';
import { DataTable, type DataTableProps } from './data-table';
import { LoadError } from './load-error';
import { Pager } from './pager';

/**
 * One page of a keyset-paged list with the states every back-office list shares: placeholder rows while the first
 * page loads, the list's own empty text, a "no match" text with a way to clear the filters when filters hide
 * everything, a retry panel when it could not be loaded, and Previous / Next below. It never widens the grid or
 * flex row it sits in: a table wider than the screen scrolls sideways inside it (on a phone the rows are cards).
 */
export function PagedTable<Row>({
  pagesLabel,
  query,
  errorTitle,
  emptyText,
  noMatchText,
  onClearFilters,
  onPage,
  ...table
}: Omit<DataTableProps<Row>, 'rows' | 'busy' | 'empty'> & {
  /** Names the Previous / Next navigation for screen readers; "<label> pages" unless given. */
  pagesLabel?: string;
  query: UseQueryResult<Page<Row>>;
  errorTitle: string;
  emptyText: string;
  noMatchText: string;
  /** Set while filters are applied: an empty page is then "no match", not "nothing yet". */
  onClearFilters?: (() => void) | undefined;
  onPage: (cursor: string) => void;
}) {
  const { data: page, error, isPending, isPlaceholderData, refetch, isRefetching } = query;
  if (error) {
    return <LoadError title={errorTitle} error={error} onRetry={() => refetch()} retrying={isRefetching} />;
  }
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <DataTable
        {...table}
        rows={page?.items}
        busy={isPending || isPlaceholderData}
        empty={
          onClearFilters ? (
            <span className="flex flex-col items-center gap-3">
              {noMatchText}
              <Button variant="outline" onClick={onClearFilters}>
                Clear filters
              </Button>
            </span>
          ) : (
            emptyText
          )
        }
      />
      <Pager
        label={pagesLabel ?? `${table.label} pages`}
        page={page}
        onPage={onPage}
        busy={isPlaceholderData}
      />
    </div>
  );
}

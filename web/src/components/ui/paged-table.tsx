import type { Page } from '@licensestore/shared/paging';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from './button';
import { LoadError } from './load-error';
import { Pager } from './pager';
import { Table, TableBody, TableHeader, TableHeaderRow, TableMessageRow, TableSkeletonRows } from './table';

/**
 * One page of a keyset-paged list with the states every back-office list shares: placeholder rows while the first
 * page loads, the list's own empty text, a "no match" text with a way to clear the filters when filters hide
 * everything, a retry panel when it could not be loaded, and Previous / Next below. It never widens the grid or
 * flex row it sits in: a table wider than the screen scrolls sideways inside it.
 */
export function PagedTable<Row>({
  label,
  pagesLabel = `${label} pages`,
  columns,
  query,
  errorTitle,
  emptyText,
  noMatchText,
  onClearFilters,
  onPage,
  renderRow,
}: {
  label: string;
  /** Names the Previous / Next navigation for screen readers. */
  pagesLabel?: string;
  columns: readonly string[];
  query: UseQueryResult<Page<Row>>;
  errorTitle: string;
  emptyText: string;
  noMatchText: string;
  /** Set while filters are applied: an empty page is then "no match", not "nothing yet". */
  onClearFilters?: (() => void) | undefined;
  onPage: (cursor: string) => void;
  renderRow: (row: Row) => ReactNode;
}) {
  const { data: page, error, isPending, isPlaceholderData, refetch, isRefetching } = query;
  if (error) {
    return <LoadError title={errorTitle} error={error} onRetry={() => refetch()} retrying={isRefetching} />;
  }
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <Table aria-label={label} aria-busy={isPending || isPlaceholderData}>
        <TableHeader>
          <TableHeaderRow columns={columns} />
        </TableHeader>
        <TableBody>
          {isPending ? (
            <TableSkeletonRows columns={columns} />
          ) : page.items.length > 0 ? (
            page.items.map(renderRow)
          ) : onClearFilters ? (
            <TableMessageRow colSpan={columns.length}>
              <span className="flex flex-col items-center gap-3">
                {noMatchText}
                <Button variant="outline" onClick={onClearFilters}>
                  Clear filters
                </Button>
              </span>
            </TableMessageRow>
          ) : (
            <TableMessageRow colSpan={columns.length}>{emptyText}</TableMessageRow>
          )}
        </TableBody>
      </Table>
      <Pager label={pagesLabel} page={page} onPage={onPage} busy={isPlaceholderData} />
    </div>
  );
}

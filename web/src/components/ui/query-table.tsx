import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadError } from './load-error';
import { Table, TableBody, TableHeader, TableHeaderRow, TableMessageRow, TableSkeletonRows } from './table';

/**
 * A table of what a query lists, with the states every back-office list shares: placeholder rows while loading,
 * the list's own empty text, and a retry panel when it could not be loaded.
 */
export function QueryTable<Row>({
  label,
  columns,
  query,
  errorTitle,
  emptyText,
  renderRow,
  skeletonCell,
}: {
  label: string;
  columns: readonly string[];
  query: UseQueryResult<Row[]>;
  errorTitle: string;
  emptyText: string;
  renderRow: (row: Row) => ReactNode;
  skeletonCell?: (column: string) => string;
}) {
  const { data: rows, error, isPending, refetch, isRefetching } = query;
  if (error) {
    return <LoadError title={errorTitle} error={error} onRetry={() => refetch()} retrying={isRefetching} />;
  }
  return (
    <Table aria-label={label} aria-busy={isPending}>
      <TableHeader>
        <TableHeaderRow columns={columns} />
      </TableHeader>
      <TableBody>
        {isPending ? (
          <TableSkeletonRows columns={columns} cellClassName={skeletonCell} />
        ) : rows.length === 0 ? (
          <TableMessageRow colSpan={columns.length}>{emptyText}</TableMessageRow>
        ) : (
          rows.map(renderRow)
        )}
      </TableBody>
    </Table>
  );
}

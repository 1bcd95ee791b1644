import type { UseQueryResult } from '@tanstack/react-query';
import { DataTable, type DataTableProps } from './data-table';
import { LoadError } from './load-error';

/**
 * A table of what a query lists, with the states every back-office list shares: placeholder rows while loading,
 * the list's own empty text, and a retry panel when it could not be loaded.
 */
export function QueryTable<Row>({
  query,
  errorTitle,
  emptyText,
  ...table
}: Omit<DataTableProps<Row>, 'rows' | 'busy' | 'empty'> & {
  query: UseQueryResult<Row[]>;
  errorTitle: string;
  emptyText: string;
}) {
  const { data: rows, error, isPending, refetch, isRefetching } = query;
  if (error) {
    return <LoadError title={errorTitle} error={error} onRetry={() => refetch()} retrying={isRefetching} />;
  }
  return <DataTable {...table} rows={rows} busy={isPending} empty={emptyText} />;
}

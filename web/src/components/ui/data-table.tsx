import { Fragment, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { usePhoneWidth } from '@/lib/phone-width';
import { Skeleton } from './skeleton';
import { Table, TableBody, TableCell, TableHeader, TableHeaderRow, TableMessageRow, TableRow } from './table';

/** One column of a back-office list, declared once for its table and its cards alike. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** The table cell's classes (no wrapping, alignment): a card's values always wrap inside the card. */
  className?: string;
  /** The shape of the column's placeholder while the list loads. */
  skeleton?: string;
}

/** A list's columns; the first names the row, a card's title. */
export type Columns<Row> = readonly [Column<Row>, ...Column<Row>[]];

/** What sets a row apart besides its cells: the one shown above the list, or one that needs a look. */
export interface RowMarks {
  className?: string;
  'aria-current'?: 'true';
}

export interface DataTableProps<Row> {
  label: string;
  columns: Columns<Row>;
  /**
   * The row's buttons: the last column of the table, the foot of a card (none when it gives null). Left out for
   * who may not act.
   */
  actions?: ((row: Row) => ReactNode) | undefined;
  /** Undefined while the first rows load. */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  rowMarks?: (row: Row) => RowMarks;
  busy?: boolean;
  /** Why there is nothing to list. */
  empty: ReactNode;
}

const ACTIONS = 'Actions';
const PLACEHOLDER_ROWS = 5;
const PLACEHOLDER_CARDS = 3;
const DEFAULT_SKELETON = 'h-5 w-full min-w-16';
const CARD = 'rounded-lg border border-border bg-card p-4 text-sm text-card-foreground';

/**
 * A back-office list: a table from 768 px up; below, where a table's last columns (the total, the status, the
 * buttons) would sit off-screen, one card per row with the first column as its title, every other value beside
 * its label, and the buttons at its foot.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  return usePhoneWidth() ? <Cards {...props} /> : <WideTable {...props} />;
}

function WideTable<Row>({
  label,
  columns,
  actions,
  rows,
  rowKey,
  rowMarks,
  busy,
  empty,
}: DataTableProps<Row>) {
  const headers = [...columns.map((column) => column.header), ...(actions ? [ACTIONS] : [])];
  return (
    <Table aria-label={label} aria-busy={busy}>
      <TableHeader>
        <TableHeaderRow columns={headers} />
      </TableHeader>
      <TableBody>
        {rows === undefined ? (
          Array.from({ length: PLACEHOLDER_ROWS }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart
            <TableRow key={index}>
              {headers.map((header, column) => (
                <TableCell key={header}>
                  <Skeleton className={columns[column]?.skeleton ?? DEFAULT_SKELETON} />
                </TableCell>
              ))}
            </TableRow>
          ))
        ) : rows.length === 0 ? (
          <TableMessageRow colSpan={headers.length}>{empty}</TableMessageRow>
        ) : (
          rows.map((row) => (
            <TableRow key={rowKey(row)} {...rowMarks?.(row)}>
              {columns.map((column) => (
                <TableCell key={column.header} className={column.className}>
                  {column.cell(row)}
                </TableCell>
              ))}
              {actions && (
                <TableCell>
                  {/* Rows with and without buttons stand equally tall. */}
                  <div className="flex min-h-9 items-center gap-1">{actions(row)}</div>
                </TableCell>
              )}
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}

/**
 * The cards are a list, each card a description list, rather than a table restyled as blocks: a table given
 * `display: block` loses its table semantics in some browsers, and labels drawn by CSS `content` are not read out
 * everywhere, whereas a list of term/definition pairs says how many rows there are and names every value. The
 * title's and the buttons' labels are there for screen readers only; the buttons carry their own names.
 */
function Cards<Row>({ label, columns, actions, rows, rowKey, rowMarks, busy, empty }: DataTableProps<Row>) {
  const [title, ...details] = columns;
  return (
    <ul aria-label={label} aria-busy={busy} className="grid min-w-0 gap-3">
      {rows === undefined ? (
        Array.from({ length: PLACEHOLDER_CARDS }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart
          <li key={index} className={cn(CARD, 'grid gap-3')}>
            <Skeleton className="h-6 w-2/3" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
          </li>
        ))
      ) : rows.length === 0 ? (
        <li className={cn(CARD, 'py-10 text-center text-muted-foreground')}>{empty}</li>
      ) : (
        rows.map((row) => {
          const { className, ...marks } = rowMarks?.(row) ?? {};
          const buttons = actions?.(row);
          return (
            <li key={rowKey(row)} className={cn(CARD, className)} {...marks}>
              <dl className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-x-4 gap-y-2">
                <dt className="sr-only">{title.header}</dt>
                <dd className="col-span-2 mb-1 text-base font-medium [overflow-wrap:anywhere]">
                  {title.cell(row)}
                </dd>
                {details.map((column) => (
                  <Fragment key={column.header}>
                    <dt className="text-muted-foreground">{column.header}</dt>
                    <dd className="min-w-0 [overflow-wrap:anywhere]">{column.cell(row)}</dd>
                  </Fragment>
                ))}
                {buttons != null && (
                  <>
                    <dt className="sr-only">{ACTIONS}</dt>
                    <dd className="col-span-2 mt-2 flex flex-wrap gap-2 border-t border-border pt-3">
                      {buttons}
                    </dd>
                  </>
                )}
              </dl>
            </li>
          );
        })
      )}
    </ul>
  );
}

import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** A data table that scrolls sideways on narrow screens instead of squeezing its columns. */
export function Table({ className, ...props }: ComponentProps<'table'>) {
  return (
    <div className="w-full overflow-x-auto rounded-lg border border-border">
      <table className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

export const TableHeader = ({ className, ...props }: ComponentProps<'thead'>) => (
  <thead className={cn('bg-muted/50 [&_tr]:border-b', className)} {...props} />
);

export const TableBody = ({ className, ...props }: ComponentProps<'tbody'>) => (
  <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />
);

export const TableRow = ({ className, ...props }: ComponentProps<'tr'>) => (
  <tr className={cn('border-b border-border transition-colors hover:bg-muted/40', className)} {...props} />
);

export const TableHead = ({ className, ...props }: ComponentProps<'th'>) => (
  <th
    scope="col"
    className={cn(
      'h-10 px-4 text-left align-middle font-medium whitespace-nowrap text-muted-foreground',
      className,
    )}
    {...props}
  />
);

export const TableCell = ({ className, ...props }: ComponentProps<'td'>) => (
  <td className={cn('px-4 py-3 align-middle', className)} {...props} />
);

/** The header row of a table with plain text column names. */
export const TableHeaderRow = ({ columns }: { columns: readonly string[] }) => (
  <TableRow className="hover:bg-transparent">
    {columns.map((column) => (
      <TableHead key={column}>{column}</TableHead>
    ))}
  </TableRow>
);

/** One row across the whole table saying why there is nothing to list. */
export const TableMessageRow = ({ colSpan, children }: { colSpan: number; children: ReactNode }) => (
  <TableRow className="hover:bg-transparent">
    <TableCell colSpan={colSpan} className="py-10 text-center text-muted-foreground">
      {children}
    </TableCell>
  </TableRow>
);

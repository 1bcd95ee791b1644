import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatPrice } from '@/lib/format';
import { type CustomerView, useCustomers } from '../api/get-customers';

const COLUMNS = ['Name', 'Email', 'Orders', 'Total Spent', 'Last Order'];
const SKELETON_ROWS = 5;

const lastOrder = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString();
};

function CustomerRow({ customer }: { customer: CustomerView }) {
  return (
    <TableRow>
      <TableCell className="font-medium whitespace-nowrap">{customer.name}</TableCell>
      <TableCell className="whitespace-nowrap">{customer.email}</TableCell>
      <TableCell className="tabular-nums">{customer.orderCount}</TableCell>
      <TableCell className="tabular-nums">{formatPrice(customer.totalSpent)}</TableCell>
      <TableCell className="whitespace-nowrap">{lastOrder(customer.lastOrderDate)}</TableCell>
    </TableRow>
  );
}

/** Customers derived from the orders, the most recent buyer first (spec section 2, Customers). */
export function CustomersTable() {
  const { data: customers, error, isPending, refetch, isRefetching } = useCustomers();
  if (error) {
    return (
      <LoadError
        title="The customers could not be loaded"
        error={error}
        onRetry={() => refetch()}
        retrying={isRefetching}
      />
    );
  }
  return (
    <Table aria-label="Customers" aria-busy={isPending}>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {COLUMNS.map((column) => (
            <TableHead key={column}>{column}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {isPending ? (
          Array.from({ length: SKELETON_ROWS }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart
            <TableRow key={row}>
              {COLUMNS.map((column) => (
                <TableCell key={column}>
                  <Skeleton className="h-5 w-full min-w-16" />
                </TableCell>
              ))}
            </TableRow>
          ))
        ) : customers.length === 0 ? (
          <TableRow className="hover:bg-transparent">
            <TableCell colSpan={COLUMNS.length} className="py-10 text-center text-muted-foreground">
              No customers yet. Customer data will appear here after the first order.
            </TableCell>
          </TableRow>
        ) : (
          customers.map((customer) => <CustomerRow key={customer.email} customer={customer} />)
        )}
      </TableBody>
    </Table>
  );
}

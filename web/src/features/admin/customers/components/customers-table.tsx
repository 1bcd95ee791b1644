import { Link } from 'wouter';
import { PagedTable } from '@/components/ui/paged-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/date-time';
import { formatPrice } from '@/lib/format';
import { type CustomerView, customerHref, useCustomerPage } from '../api/get-customers';

const COLUMNS = ['Name', 'Email', 'Orders', 'Total Spent', 'Last Order'];

function CustomerRow({ customer }: { customer: CustomerView }) {
  return (
    <TableRow>
      <TableCell className="font-medium whitespace-nowrap">
        <Link
          href={customerHref(customer.email)}
          aria-label={`${customer.name}: customer details and orders`}
          className="rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
        >
          {customer.name}
        </Link>
      </TableCell>
      <TableCell className="whitespace-nowrap">{customer.email}</TableCell>
      <TableCell className="tabular-nums">{customer.orderCount}</TableCell>
      <TableCell className="tabular-nums">{formatPrice(customer.totalSpent)}</TableCell>
      <TableCell className="whitespace-nowrap">{formatDateTime(customer.lastOrderDate)}</TableCell>
    </TableRow>
  );
}

/** One page of customers derived from the orders, the most recent buyer first by default (spec section 2). */
export function CustomersTable({
  params,
  onPage,
  onClearFilters,
}: {
  params: Readonly<Record<string, string>>;
  onPage: (cursor: string) => void;
  onClearFilters: (() => void) | undefined;
}) {
  return (
    <PagedTable
      label="Customers"
      columns={COLUMNS}
      query={useCustomerPage(params)}
      errorTitle="The customers could not be loaded"
      emptyText="No customers yet. Customer data will appear here after the first order."
      noMatchText="No customers match this search."
      onClearFilters={onClearFilters}
      onPage={onPage}
      renderRow={(customer) => <CustomerRow key={customer.email} customer={customer} />}
    />
  );
}

import type { CustomerView } from '@licensestore/contract/customers';
import { Link } from 'wouter';
import type { Columns } from '@/components/ui/data-table';
import { PagedTable } from '@/components/ui/paged-table';
import { formatDateTime } from '@/lib/date-time';
import { formatPrice } from '@/lib/format';
import { customerHref, useCustomerPage } from '../api/get-customers';

const COLUMNS: Columns<CustomerView> = [
  {
    header: 'Name',
    className: 'font-medium whitespace-nowrap',
    cell: (customer) => (
      <Link
        href={customerHref(customer.email)}
        aria-label={`${customer.name}: customer details and orders`}
        className="rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
      >
        {customer.name}
      </Link>
    ),
  },
  { header: 'Email', className: 'whitespace-nowrap', cell: (customer) => customer.email },
  { header: 'Orders', className: 'tabular-nums', cell: (customer) => customer.orderCount },
  { header: 'Total Spent', className: 'tabular-nums', cell: (customer) => formatPrice(customer.totalSpent) },
  {
    header: 'Last Order',
    className: 'whitespace-nowrap',
    cell: (customer) => formatDateTime(customer.lastOrderDate),
  },
];

/** One page of customers derived from the orders, the most recent buyer first by default. */
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
      rowKey={(customer) => customer.email}
    />
  );
}

import { QueryTable } from '@/components/ui/query-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { formatPrice } from '@/lib/format';
import { type CustomerView, useCustomers } from '../api/get-customers';

const COLUMNS = ['Name', 'Email', 'Orders', 'Total Spent', 'Last Order'];

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
  return (
    <QueryTable
      label="Customers"
      columns={COLUMNS}
      query={useCustomers()}
      errorTitle="The customers could not be loaded"
      emptyText="No customers yet. Customer data will appear here after the first order."
      renderRow={(customer) => <CustomerRow key={customer.email} customer={customer} />}
    />
  );
}

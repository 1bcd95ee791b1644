import type { OrderView } from '@licensestore/shared';
import { orderNumber } from '@licensestore/shared/orders/order-number';
import { Link } from 'wouter';
import { PagedTable } from '@/components/ui/paged-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/date-time';
import { formatPrice } from '@/lib/format';
import { useReadOnly } from '../../auth/api/admin-status';
import { AdminOrderStatusBadge } from '../../components/admin-order-status-badge';
import { useOrderPage } from '../api/get-orders';
import { OrderStatusSelect } from './order-status-select';

const COLUMNS = ['Order ID', 'Customer', 'Email', 'Total', 'Status', 'Date', 'Actions'];
/** An auditor's table: the status shows in its badge; the drop-down that changes it is left out. */
const READ_ONLY_COLUMNS = COLUMNS.filter((column) => column !== 'Actions');

function OrderRow({ order, readOnly }: { order: OrderView; readOnly: boolean }) {
  const number = orderNumber(order.id);
  return (
    <TableRow>
      <TableCell className="font-mono font-medium whitespace-nowrap">
        <Link
          href={`/admin/orders/${order.id}`}
          aria-label={`Order ${number}: details and history`}
          className="rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
        >
          {number}
        </Link>
      </TableCell>
      <TableCell className="whitespace-nowrap">{order.customerName}</TableCell>
      <TableCell className="whitespace-nowrap">{order.customerEmail}</TableCell>
      <TableCell className="tabular-nums">{formatPrice(order.total)}</TableCell>
      <TableCell>
        <AdminOrderStatusBadge status={order.status} />
      </TableCell>
      <TableCell className="whitespace-nowrap">{formatDateTime(order.createdAt)}</TableCell>
      {!readOnly && (
        <TableCell>
          <OrderStatusSelect order={order} className="w-36" />
        </TableCell>
      )}
    </TableRow>
  );
}

/**
 * One page of orders as `params` select and sort them (newest first by default), each with its status drop-down
 * (spec section 2, Orders). `onClearFilters` is given while filters hide orders.
 */
export function OrdersTable({
  params,
  onPage,
  onClearFilters,
  emptyText = 'No orders yet. Orders will appear here when customers make purchases.',
}: {
  params: Readonly<Record<string, string>>;
  onPage: (cursor: string) => void;
  onClearFilters?: (() => void) | undefined;
  emptyText?: string;
}) {
  const readOnly = useReadOnly();
  return (
    <PagedTable
      label="Orders"
      columns={readOnly ? READ_ONLY_COLUMNS : COLUMNS}
      query={useOrderPage(params)}
      errorTitle="The orders could not be loaded"
      emptyText={emptyText}
      noMatchText="No orders match these filters."
      onClearFilters={onClearFilters}
      onPage={onPage}
      renderRow={(order) => <OrderRow key={order.id} order={order} readOnly={readOnly} />}
    />
  );
}

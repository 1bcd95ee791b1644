import type { OrderView } from '@licensestore/shared';
import { orderNumber } from '@licensestore/shared/orders/order-number';
import { Link } from 'wouter';
import type { Columns } from '@/components/ui/data-table';
import { PagedTable } from '@/components/ui/paged-table';
import { formatDateTime } from '@/lib/date-time';
import { formatPrice } from '@/lib/format';
import { useReadOnly } from '../../auth/api/admin-status';
import { AdminOrderStatusBadge } from '../../components/admin-order-status-badge';
import { useOrderPage } from '../api/get-orders';
import { OrderStatusSelect } from './order-status-select';

const COLUMNS: Columns<OrderView> = [
  {
    header: 'Order ID',
    className: 'font-mono font-medium whitespace-nowrap',
    cell: (order) => {
      const number = orderNumber(order.id);
      return (
        <Link
          href={`/admin/orders/${order.id}`}
          aria-label={`Order ${number}: details and history`}
          className="rounded-sm font-mono text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
        >
          {number}
        </Link>
      );
    },
  },
  { header: 'Customer', className: 'whitespace-nowrap', cell: (order) => order.customerName },
  { header: 'Email', className: 'whitespace-nowrap', cell: (order) => order.customerEmail },
  { header: 'Total', className: 'tabular-nums', cell: (order) => formatPrice(order.total) },
  { header: 'Status', cell: (order) => <AdminOrderStatusBadge status={order.status} /> },
  { header: 'Date', className: 'whitespace-nowrap', cell: (order) => formatDateTime(order.createdAt) },
];

/** The status drop-down that changes an order; an auditor's table leaves it out and shows the status in its badge. */
const statusSelect = (order: OrderView) => <OrderStatusSelect order={order} className="w-36" />;

/**
 * One page of orders as `params` select and sort them (newest first by default), each with its status drop-down
 * from the list. `onClearFilters` is given while filters hide orders.
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
      columns={COLUMNS}
      actions={readOnly ? undefined : statusSelect}
      query={useOrderPage(params)}
      errorTitle="The orders could not be loaded"
      emptyText={emptyText}
      noMatchText="No orders match these filters."
      onClearFilters={onClearFilters}
      onPage={onPage}
      rowKey={(order) => order.id}
    />
  );
}

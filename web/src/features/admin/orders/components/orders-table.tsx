import type { Page } from '@licensestore/contract/paging';
import type { OrderView } from '@licensestore/domain';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import { Link } from 'wouter';
import type { Columns } from '@/components/ui/data-table';
import { PagedTable } from '@/components/ui/paged-table';
import { EmailAddress } from '@/features/admin/components/email-address';
import { formatDateTime } from '@/lib/date-time';
import { formatPrice } from '@/lib/format';
import { useReadOnly } from '../../auth/api/admin-status';
import { AdminOrderStatusBadge } from '../../components/admin-order-status-badge';
import { useOrderPage } from '../api/get-orders';
import { OrderStatusSelect } from './order-status-select';

/** The moment as formatDateTime shows it, free to wrap between its date and its time. */
function Moment({ iso }: { iso: string }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return formatDateTime(iso);
  return (
    <>
      <span className="whitespace-nowrap">{date.toLocaleDateString()},</span>{' '}
      <span className="whitespace-nowrap">{date.toLocaleTimeString()}</span>
    </>
  );
}

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
  // Names wrap between words, addresses before a dot or the @, the moment between date and time: the table fits
  // beside the open sidebar at 1280 px, its first columns never scrolled out of view.
  { header: 'Customer', className: 'min-w-28', cell: (order) => order.customerName },
  { header: 'Email', cell: (order) => <EmailAddress address={order.customerEmail} /> },
  { header: 'Total', className: 'tabular-nums', cell: (order) => formatPrice(order.total) },
  {
    header: 'Status',
    cell: (order) => <AdminOrderStatusBadge status={order.status} paymentStatus={order.paymentStatus} />,
  },
  { header: 'Date', cell: (order) => <Moment iso={order.createdAt} /> },
];

/** A page of orders as the server answers it: with the number of orders found, and how many precede the page. */
type CountedPage = Page<OrderView> & { total?: number; offset?: number };

/** "Showing 21–40 of 312 orders": where this page is among the orders found, once the server has counted them. */
function PagePosition({ page }: { page: CountedPage | null | undefined }) {
  if (!page || page.total === undefined || page.offset === undefined || page.items.length === 0) return null;
  const first = page.offset + 1;
  const last = page.offset + page.items.length;
  const number = (n: number) => n.toLocaleString('en-US');
  const orders = page.total === 1 ? 'order' : 'orders';
  return (
    <p className="text-sm text-muted-foreground" aria-live="polite">
      {first === last
        ? `Showing order ${number(first)} of ${number(page.total)}`
        : `Showing ${number(first)}–${number(last)} of ${number(page.total)} ${orders}`}
    </p>
  );
}

/** The status drop-down that changes an order; an auditor's table leaves it out and shows the status in its badge. */
const statusSelect = (order: OrderView) => <OrderStatusSelect order={order} className="w-36" />;

/**
 * One page of orders as `params` select and sort them (newest first by default), each with its status drop-down
 * from the list, under where the page stands among the orders found. Another page starts at the top of the window,
 * where its first rows are. `onClearFilters` is given while filters hide orders.
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
  const query = useOrderPage(params);
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <PagePosition page={query.data as CountedPage | null | undefined} />
      <PagedTable
        label="Orders"
        columns={COLUMNS}
        actions={readOnly ? undefined : statusSelect}
        query={query}
        errorTitle="The orders could not be loaded"
        emptyText={emptyText}
        noMatchText="No orders match these filters."
        onClearFilters={onClearFilters}
        onPage={(cursor) => {
          onPage(cursor);
          window.scrollTo({ top: 0 });
        }}
        rowKey={(order) => order.id}
      />
    </div>
  );
}

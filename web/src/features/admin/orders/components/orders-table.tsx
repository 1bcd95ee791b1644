import type { OrderView } from '@licensestore/shared';
import { orderNumber } from '@licensestore/shared/orders/order-number';
import { Link } from 'wouter';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatPrice } from '@/lib/format';
import { AdminOrderStatusBadge } from '../../components/admin-order-status-badge';
import { useOrders } from '../api/get-orders';
import { localeDate } from '../utils/order-date';
import { OrderStatusSelect } from './order-status-select';

const COLUMNS = ['Order ID', 'Customer', 'Email', 'Total', 'Status', 'Date', 'Actions'];
const SKELETON_ROWS = 5;

function OrderRow({ order }: { order: OrderView }) {
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
      <TableCell className="whitespace-nowrap">{localeDate(order.createdAt)}</TableCell>
      <TableCell>
        <OrderStatusSelect order={order} className="w-36" />
      </TableCell>
    </TableRow>
  );
}

function SkeletonRows() {
  return Array.from({ length: SKELETON_ROWS }, (_, row) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart
    <TableRow key={row}>
      {COLUMNS.map((column) => (
        <TableCell key={column}>
          <Skeleton className="h-5 w-full min-w-16" />
        </TableCell>
      ))}
    </TableRow>
  ));
}

/** Every order, newest first, each with its status drop-down (spec section 2, Orders). */
export function OrdersTable() {
  const { data: orders, error, isPending, refetch, isRefetching } = useOrders();
  if (error) {
    return (
      <LoadError
        title="The orders could not be loaded"
        error={error}
        onRetry={() => refetch()}
        retrying={isRefetching}
      />
    );
  }
  return (
    <Table aria-label="Orders" aria-busy={isPending}>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {COLUMNS.map((column) => (
            <TableHead key={column}>{column}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {isPending ? (
          <SkeletonRows />
        ) : orders.length === 0 ? (
          <TableRow className="hover:bg-transparent">
            <TableCell colSpan={COLUMNS.length} className="py-10 text-center text-muted-foreground">
              No orders yet. Orders will appear here when customers make purchases.
            </TableCell>
          </TableRow>
        ) : (
          orders.map((order) => <OrderRow key={order.id} order={order} />)
        )}
      </TableBody>
    </Table>
  );
}

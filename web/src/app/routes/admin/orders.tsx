import { Seo } from '@/components/seo/seo';
import { ScreenSubtitle } from '@/features/admin/components/screen-subtitle';
import { OrdersScreen } from '@/features/admin/orders/components/orders-screen';

/** Orders: the orders a page at a time, searched and filtered, each status changed from the list. */
export default function OrdersRoute() {
  return (
    <>
      <Seo title="Orders" description="Manage customer orders" noindex />
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Orders</h1>
        <ScreenSubtitle admin="Manage customer orders" readOnly="Browse customer orders (read-only)" />
      </div>
      <OrdersScreen />
    </>
  );
}

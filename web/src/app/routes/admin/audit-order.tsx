import { orderNumber } from '@licensestore/domain/orders/order-number';
import { useParams } from 'wouter';
import { Seo } from '@/components/seo/seo';
import { OrderHistoryScreen } from '@/features/admin/audit/components/order-history-screen';

/** /admin/audit/orders/:orderId: an order's history and its state as of a chosen moment. */
export default function AuditOrderRoute() {
  const { orderId = '' } = useParams<{ orderId: string }>();
  return (
    <>
      <Seo
        title={`Order ${orderNumber(orderId)}: history`}
        description="Order history and time travel"
        noindex
      />
      <OrderHistoryScreen key={orderId} orderId={orderId} />
    </>
  );
}

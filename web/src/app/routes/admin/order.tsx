import { orderNumber } from '@licensestore/domain/orders/order-number';
import { useParams } from 'wouter';
import { Seo } from '@/components/seo/seo';
import { OrderDetail } from '@/features/admin/orders/components/order-detail';

/** /admin/orders/:orderId: one order, its keys and its history (the audit trail). */
export default function OrderRoute() {
  const { orderId = '' } = useParams<{ orderId: string }>();
  return (
    <>
      <Seo title={`Order ${orderNumber(orderId)}`} description="Order details and history" noindex />
      {/* Keyed by id: another order's page starts from its own state (revealed keys hidden again). */}
      <OrderDetail key={orderId} orderId={orderId} />
    </>
  );
}

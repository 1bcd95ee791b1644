import { useParams } from 'wouter';
import { Seo } from '@/components/seo/seo';
import { OrderConfirmation } from '@/features/orders/components/order-confirmation';

export default function OrderConfirmationRoute() {
  const { orderId = '' } = useParams<{ orderId: string }>();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 lg:py-12">
      <Seo title="Order Confirmation" description="Your order and its license keys." noindex />
      <OrderConfirmation orderId={orderId} />
    </div>
  );
}

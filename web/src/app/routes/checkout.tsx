import { Seo } from '@/components/seo/seo';
import { myOrdersQueryKey } from '@/features/account/api/get-my-orders';
import { cart, setCartPanelOpen, useCartLines } from '@/features/cart/api/use-cart';
import { lineTotalCents, subtotalCents } from '@/features/cart/utils/cart-store';
import { CheckoutPage } from '@/features/checkout/components/checkout-page';
import { queryClient } from '@/lib/api';

/** A paid checkout empties the cart, and My Orders (cached for good) must show the new order. */
function onPaid() {
  cart.clear();
  void queryClient.invalidateQueries({ queryKey: myOrdersQueryKey });
}

/** The cart feature's lines, handed to checkout as what it sells. */
export default function CheckoutRoute() {
  const lines = useCartLines();
  return (
    <>
      <Seo
        title="Checkout"
        description="Enter your details and pay securely with PayPal or a card."
        noindex
      />
      <CheckoutPage
        cart={{
          lines: lines.map((line) => ({ ...line, lineTotalCents: lineTotalCents(line) })),
          subtotalCents: subtotalCents(lines),
        }}
        onPaid={onPaid}
        onEditCart={() => setCartPanelOpen(true)}
      />
    </>
  );
}

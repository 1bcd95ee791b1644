import { Seo } from '@/components/seo/seo';
import { cart, useCartLines } from '@/features/cart/api/use-cart';
import { lineTotalCents, subtotalCents } from '@/features/cart/utils/cart-store';
import { CheckoutPage } from '@/features/checkout/components/checkout-page';

/** The cart feature's lines, handed to checkout as what it sells; a paid checkout empties the cart. */
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
        onPaid={cart.clear}
      />
    </>
  );
}

import { useState } from 'react';
import { usePaymentFlow } from '../hooks/use-payment-flow';
import type { CheckoutCart, Customer } from '../types';
import { paymentOffered, validateCustomer } from '../utils/customer-validation';
import { paypalAmount } from '../utils/money';
import { CustomerForm } from './customer-form';
import { EmptyCheckout } from './empty-checkout';
import { OrderSummaryCard } from './order-summary-card';
import { PaymentSection } from './payment-section';

type Touched = Record<keyof Customer, boolean>;

export interface CheckoutPageProps {
  cart: CheckoutCart;
  /** The payment is taken: empty the cart. */
  onPaid: () => void;
  /** Opens the cart to change it, offered until payment begins. */
  onEditCart: () => void;
}

/** Checkout: who the keys go to, the order summary, and payment once the form is valid. */
export function CheckoutPage({ cart, onPaid, onEditCart }: CheckoutPageProps) {
  const [customer, setCustomer] = useState<Customer>({ customerName: '', customerEmail: '' });
  const [touched, setTouched] = useState<Touched>({ customerName: false, customerEmail: false });
  const errors = validateCustomer(customer);
  const { phase, failure, paidCart, handlers } = usePaymentFlow({
    cart,
    customer,
    onPaid,
    validate: () => {
      setTouched({ customerName: true, customerEmail: true });
      return Object.keys(errors).length === 0;
    },
  });
  const shown = paidCart ?? cart;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <h1 className="mb-6 text-3xl font-bold tracking-tight">Checkout</h1>
      {shown.lines.length === 0 ? (
        <EmptyCheckout />
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_380px]">
          <CustomerForm
            customer={customer}
            errors={{
              customerName: touched.customerName ? errors.customerName : undefined,
              customerEmail: touched.customerEmail ? errors.customerEmail : undefined,
            }}
            disabled={phase !== 'idle'}
            onChange={setCustomer}
            onLeave={(field) => setTouched((before) => ({ ...before, [field]: true }))}
          />
          <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
            <OrderSummaryCard cart={shown} onEditCart={phase === 'idle' ? onEditCart : undefined} />
          </div>
          <PaymentSection
            offered={paymentOffered(customer)}
            phase={phase}
            failure={failure}
            handlers={handlers}
            amount={paypalAmount(shown.subtotalCents)}
          />
        </div>
      )}
    </div>
  );
}

import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { toast } from '@/lib/toast';
import { capturePaypalOrder, createPaypalOrder, OrderProcessingError } from '../api/paypal-orders';
import type { CheckoutCart, Customer } from '../types';
import { type PaymentProblem, PaymentRequestError, paymentProblem } from '../utils/payment-problems';

/** The confirmation page follows the success toast after 1.5 s. */
export const REDIRECT_DELAY_MS = 1500;

/** idle: nothing under way; processing: from the click until the outcome; paid: waiting for the redirect. */
export type PaymentPhase = 'idle' | 'processing' | 'paid';

/** What both payment methods call; stable for the page's life, so the SDK components are rendered once. */
export interface PaymentHandlers {
  /** False (and the form's messages shown) when the customer form is not valid yet. */
  mayStart: () => boolean;
  createOrder: () => Promise<string>;
  /** `restart` is the PayPal button's: the buyer picks another funding source after a decline. */
  approve: (orderID: string, restart?: () => void) => Promise<void>;
  cancel: () => void;
  fail: (error: unknown) => void;
}

interface FlowInput {
  cart: CheckoutCart;
  customer: Customer;
  /** Shows the form's messages; true when the form is valid. */
  validate: () => boolean;
  /** The payment is taken: the cart is emptied. */
  onPaid: () => void;
}

/**
 * The checkout's payment rules (paid: the cart is cleared, then the confirmation; cancelled: the cart is kept),
 * shared by the PayPal button and the card fields. The SDK keeps the handlers it was given, so they read the cart
 * and customer of the latest render, never a stale one: the amount charged always follows the cart.
 */
export function usePaymentFlow(input: FlowInput) {
  const [phase, setPhase] = useState<PaymentPhase>('idle');
  const [failure, setFailure] = useState<PaymentProblem | null>(null);
  /** The cart as it was paid for: the page keeps showing it, emptied cart or not, until the redirect. */
  const [paidCart, setPaidCart] = useState<CheckoutCart | null>(null);
  const [, navigate] = useLocation();
  const latest = useRef({ ...input, navigate });
  useEffect(() => {
    latest.current = { ...input, navigate };
  });

  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  const handlers = useMemo<PaymentHandlers>(() => {
    /**
     * The store's own refusal of this attempt, kept as thrown: PayPal's SDK hands errors thrown in its callbacks
     * back to onError across its iframe, where they may arrive as a plain Error without status or issue.
     */
    let refusal: PaymentRequestError | null = null;
    const refused = (error: unknown) => {
      if (error instanceof PaymentRequestError) refusal = error;
      return error;
    };
    const fail = (error: unknown) => {
      setPhase('idle');
      setFailure(paymentProblem(refusal ?? error));
      toast({
        title: 'Payment failed',
        description: 'There was an error processing your payment. Please try again.',
        variant: 'destructive',
      });
    };
    return {
      mayStart: () => latest.current.validate(),
      createOrder: async () => {
        setPhase('processing');
        setFailure(null);
        refusal = null;
        return createPaypalOrder(latest.current.cart, latest.current.customer).catch((error: unknown) => {
          throw refused(error);
        });
      },
      approve: async (orderID, restart) => {
        const { customer, cart } = latest.current;
        let outcome: Awaited<ReturnType<typeof capturePaypalOrder>>;
        try {
          outcome = await capturePaypalOrder(orderID, customer, cart);
        } catch (error) {
          if (!(error instanceof OrderProcessingError)) throw refused(error);
          setPhase('idle');
          toast({
            title: 'Order processing error',
            description: 'Payment was successful but there was an issue. Please contact support.',
            variant: 'destructive',
          });
          return;
        }
        if (outcome.status === 'declined') {
          if (restart) return restart();
          throw refused(outcome.error);
        }
        setPhase('paid');
        setPaidCart(cart);
        // A payment PayPal holds for review is not a success yet: the order page says what happens next.
        toast(
          outcome.paymentStatus === 'pending'
            ? {
                title: 'Payment under review',
                description: 'PayPal is reviewing your payment. Your order page shows when it is complete.',
              }
            : {
                title: 'Payment successful!',
                description: 'Your order has been confirmed. License keys will be sent to your email.',
              },
        );
        latest.current.onPaid();
        redirect.current = setTimeout(
          () => latest.current.navigate(`/order-confirmation/${outcome.orderId}`),
          REDIRECT_DELAY_MS,
        );
      },
      cancel: () => {
        setPhase('idle');
        toast({
          title: 'Payment cancelled',
          description: 'You cancelled the payment. Your cart has been preserved.',
        });
      },
      fail,
    };
  }, []);

  return { phase, failure, paidCart, handlers };
}

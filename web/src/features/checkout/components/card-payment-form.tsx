import type { PayPalCardFieldsComponent, PayPalNamespace } from '@paypal/paypal-js';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { PaymentHandlers } from '../hooks/use-payment-flow';
import { CardPaymentsUnavailable } from './card-payments-unavailable';

/** Spec section 9: eligibility is asked 100 ms after the tab opens, once the containers are laid out. */
const ELIGIBILITY_DELAY_MS = 100;

const FIELDS = [
  { key: 'name', label: 'Cardholder Name', make: (fields: PayPalCardFieldsComponent) => fields.NameField },
  { key: 'number', label: 'Card Number', make: (fields: PayPalCardFieldsComponent) => fields.NumberField },
  {
    key: 'expiry',
    label: 'Expiry Date',
    make: (fields: PayPalCardFieldsComponent) => fields.ExpiryField,
    placeholder: 'MM/YY',
  },
  { key: 'cvv', label: 'CVV', make: (fields: PayPalCardFieldsComponent) => fields.CVVField },
] as const;

type FieldKey = (typeof FIELDS)[number]['key'];

interface CardPaymentFormProps {
  paypal: PayPalNamespace;
  handlers: PaymentHandlers;
  /** "59.97" */
  amount: string;
  currency: string;
}

/**
 * The card fields are PayPal's (iframes at PayPal, inputs in the emulator): this form gives them labelled boxes and
 * the pay button. Card data never passes through this page's code.
 */
export function CardPaymentForm({ paypal, handlers, amount, currency }: CardPaymentFormProps) {
  const containers = useRef<Partial<Record<FieldKey, HTMLDivElement | null>>>({});
  const cardFields = useRef<PayPalCardFieldsComponent | null>(null);
  const [status, setStatus] = useState<'checking' | 'ready' | 'unavailable'>('checking');
  const [submitting, setSubmitting] = useState(false);
  const [incomplete, setIncomplete] = useState(false);

  useEffect(() => {
    let current = true;
    const closers: Array<() => Promise<void>> = [];
    const timer = setTimeout(async () => {
      const fields = paypal.CardFields?.({
        createOrder: () => handlers.createOrder(),
        onApprove: (data) => handlers.approve(data.orderID),
        onError: (error) => handlers.fail(error),
      });
      if (!fields?.isEligible()) {
        if (current) setStatus('unavailable');
        return;
      }
      try {
        await Promise.all(
          FIELDS.map((field) => {
            const rendered = field.make(fields)(
              'placeholder' in field ? { placeholder: field.placeholder } : {},
            );
            closers.push(rendered.close);
            return rendered.render(containers.current[field.key] as HTMLDivElement);
          }),
        );
        if (!current) return;
        cardFields.current = fields;
        setStatus('ready');
      } catch {
        if (current) setStatus('unavailable');
      }
    }, ELIGIBILITY_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
      cardFields.current = null;
      for (const close of closers) close().catch(() => {});
    };
  }, [paypal, handlers]);

  const pay = async () => {
    const fields = cardFields.current;
    if (!fields || !handlers.mayStart()) return;
    const state = await fields.getState();
    setIncomplete(!state.isFormValid);
    if (!state.isFormValid) return;
    setSubmitting(true);
    try {
      await fields.submit();
    } catch {
      // onError has told the buyer already.
    } finally {
      setSubmitting(false);
    }
  };

  if (status === 'unavailable') return <CardPaymentsUnavailable />;

  return (
    <div className="relative grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map((field) => (
          <fieldset
            key={field.key}
            className={`min-w-0 ${field.key === 'name' || field.key === 'number' ? 'sm:col-span-2' : ''}`}
          >
            <legend className="mb-2 text-sm font-medium">{field.label}</legend>
            <div
              ref={(element) => {
                containers.current[field.key] = element;
              }}
              className="min-h-10 [&_input]:bg-background [&_input]:text-foreground [&_input]:placeholder:text-muted-foreground"
            />
          </fieldset>
        ))}
      </div>
      <p className="min-h-5 text-sm text-destructive">
        {incomplete ? 'Please check your card details and try again.' : ''}
      </p>
      <Button onClick={pay} disabled={status !== 'ready' || submitting} className="w-full">
        {submitting ? 'Processing...' : `Pay ${amount} ${currency}`}
      </Button>
      {status === 'checking' && (
        <p
          role="status"
          className="absolute inset-0 flex items-center justify-center rounded-md bg-card text-sm text-muted-foreground"
        >
          Loading card payment form...
        </p>
      )}
    </div>
  );
}

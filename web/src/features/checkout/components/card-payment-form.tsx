import type {
  PayPalCardFieldsComponent,
  PayPalCardFieldsStateObject,
  PayPalNamespace,
} from '@paypal/paypal-js';
import { useEffect, useRef, useState } from 'react';
import { useTheme } from '@/components/theme/use-theme';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import type { PaymentHandlers } from '../hooks/use-payment-flow';
import { CARD_FIELD_DATA, type CardFieldKey, cardFieldMessages } from '../utils/card-field-messages';
import { cardFieldStyle } from '../utils/card-field-style';
import { CardPaymentsUnavailable } from './card-payments-unavailable';

/** Eligibility is asked 100 ms after the tab opens, once the containers are laid out. */
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

type FieldKey = CardFieldKey;

const EVERY_FIELD = new Set<FieldKey>(FIELDS.map((field) => field.key));

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
  /** PayPal's latest word on the fields, and which of them to mark: those the buyer left, all after a press of Pay. */
  const [fieldState, setFieldState] = useState<PayPalCardFieldsStateObject | null>(null);
  const [marked, setMarked] = useState<ReadonlySet<FieldKey>>(new Set());
  const messages = fieldState ? cardFieldMessages(fieldState, marked) : {};
  const { theme } = useTheme();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the fields take the theme's colours when drawn (cardFieldStyle), so a change of theme draws them again.
  useEffect(() => {
    let current = true;
    const closers: Array<() => Promise<void>> = [];
    const timer = setTimeout(async () => {
      const fields = paypal.CardFields?.({
        style: cardFieldStyle(),
        createOrder: () => handlers.createOrder(),
        onApprove: (data) => handlers.approve(data.orderID),
        onError: (error) => handlers.fail(error),
        inputEvents: {
          onChange: (state) => current && setFieldState(state),
          // A field is judged once the buyer leaves it with something typed, never while they type it.
          onBlur: (state) => {
            if (!current) return;
            setFieldState(state);
            const left = state.emittedBy;
            if (left && !state.fields[CARD_FIELD_DATA[left]].isEmpty) {
              setMarked((before) => new Set(before).add(left));
            }
          },
        },
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
  }, [paypal, handlers, theme]);

  const pay = async () => {
    const fields = cardFields.current;
    if (!fields || !handlers.mayStart()) return;
    const state = await fields.getState();
    setFieldState(state);
    setMarked(EVERY_FIELD);
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
        {FIELDS.map((field) => {
          const message = messages[field.key];
          const messageId = `card-${field.key}-message`;
          return (
            <fieldset
              key={field.key}
              aria-describedby={message ? messageId : undefined}
              className={cn('min-w-0', (field.key === 'name' || field.key === 'number') && 'sm:col-span-2')}
            >
              <legend className="mb-2 text-sm font-medium">{field.label}</legend>
              <div
                ref={(element) => {
                  containers.current[field.key] = element;
                }}
                className={cn(
                  'min-h-10 rounded-md [&_input]:bg-background [&_input]:text-foreground [&_input]:placeholder:text-muted-foreground',
                  message && 'ring-2 ring-destructive',
                )}
              />
              {/* The line is kept when empty, so a message appearing does not push the form down. */}
              <p id={messageId} className="mt-1 min-h-5 text-sm text-destructive">
                {message}
              </p>
            </fieldset>
          );
        })}
      </div>
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

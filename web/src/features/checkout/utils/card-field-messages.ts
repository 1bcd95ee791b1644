import type { PayPalCardFieldError, PayPalCardFieldsStateObject } from '@paypal/paypal-js';

export type CardFieldKey = 'name' | 'number' | 'expiry' | 'cvv';

export type CardFieldMessages = Partial<Record<CardFieldKey, string>>;

/** Where PayPal's state object keeps each field's data. */
export const CARD_FIELD_DATA = {
  name: 'cardNameField',
  number: 'cardNumberField',
  expiry: 'cardExpiryField',
  cvv: 'cardCvvField',
} as const satisfies Record<CardFieldKey, keyof PayPalCardFieldsStateObject['fields']>;

/** Each field's error code in PayPal's state object, and the words for an empty or a wrong value. */
const FIELDS: Record<CardFieldKey, { error: PayPalCardFieldError; empty: string; wrong: string }> = {
  name: {
    error: 'INVALID_NAME',
    empty: 'Enter the name on the card',
    wrong: 'Check the name on the card',
  },
  number: {
    error: 'INVALID_NUMBER',
    empty: 'Enter the card number',
    wrong: 'Check the card number',
  },
  expiry: {
    error: 'INVALID_EXPIRY',
    empty: 'Enter the expiry date',
    wrong: 'Check the expiry date (MM/YY, not in the past)',
  },
  cvv: {
    error: 'INVALID_CVV',
    empty: 'Enter the CVV',
    wrong: 'Check the CVV (3 digits on the back, 4 on the front for American Express)',
  },
};

const INELIGIBLE = 'This card type is not accepted: use Visa, Mastercard, American Express or Discover';

/**
 * The message of each field PayPal's state says is not valid, among the fields to `mark` (left by the buyer, or all
 * of them after a press of Pay): PayPal's own judgement, in words that say what to do.
 */
export function cardFieldMessages(
  state: PayPalCardFieldsStateObject,
  mark: ReadonlySet<CardFieldKey>,
): CardFieldMessages {
  const messages: CardFieldMessages = {};
  for (const key of mark) {
    const field = FIELDS[key];
    // A number PayPal does not take is reported as an ineligible vendor instead of an invalid number.
    const ineligible = key === 'number' && state.errors.includes('INELIGIBLE_CARD_VENDOR');
    if (!ineligible && !state.errors.includes(field.error)) continue;
    if (state.fields[CARD_FIELD_DATA[key]]?.isEmpty) messages[key] = field.empty;
    else messages[key] = ineligible ? INELIGIBLE : field.wrong;
  }
  return messages;
}

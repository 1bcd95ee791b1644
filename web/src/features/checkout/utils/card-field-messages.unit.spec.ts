import type { PayPalCardFieldError, PayPalCardFieldsStateObject } from '@paypal/paypal-js';
import { describe, expect, it } from 'vitest';
import { type CardFieldKey, cardFieldMessages } from './card-field-messages';

const field = (isEmpty: boolean) => ({ isEmpty, isFocused: false, isValid: false, isPotentiallyValid: true });

/** PayPal's state with these errors; `empty` fields have nothing typed. */
const state = (errors: PayPalCardFieldError[], empty: CardFieldKey[] = []): PayPalCardFieldsStateObject => ({
  cards: [],
  isFormValid: errors.length === 0,
  errors,
  fields: {
    cardNameField: field(empty.includes('name')),
    cardNumberField: field(empty.includes('number')),
    cardExpiryField: field(empty.includes('expiry')),
    cardCvvField: field(empty.includes('cvv')),
  },
});

const ALL = new Set<CardFieldKey>(['name', 'number', 'expiry', 'cvv']);

describe('cardFieldMessages', () => {
  it('asks for each empty field, one by one', () => {
    expect(
      cardFieldMessages(
        state(
          ['INVALID_NAME', 'INVALID_NUMBER', 'INVALID_EXPIRY', 'INVALID_CVV'],
          ['name', 'number', 'expiry', 'cvv'],
        ),
        ALL,
      ),
    ).toStrictEqual({
      name: 'Enter the name on the card',
      number: 'Enter the card number',
      expiry: 'Enter the expiry date',
      cvv: 'Enter the CVV',
    });
  });

  it('says which typed values to check, and only for the fields to mark', () => {
    const typedWrong = state(['INVALID_NUMBER', 'INVALID_EXPIRY']);
    expect(cardFieldMessages(typedWrong, ALL)).toStrictEqual({
      number: 'Check the card number',
      expiry: 'Check the expiry date (MM/YY, not in the past)',
    });
    expect(cardFieldMessages(typedWrong, new Set(['expiry', 'cvv']))).toStrictEqual({
      expiry: 'Check the expiry date (MM/YY, not in the past)',
    });
    expect(cardFieldMessages(state([]), ALL)).toStrictEqual({});
  });

  it('asks for an empty number whichever error PayPal gives it', () => {
    expect(cardFieldMessages(state(['INELIGIBLE_CARD_VENDOR'], ['number']), ALL)).toStrictEqual({
      number: 'Enter the card number',
    });
  });

  it('names the accepted card types for a card PayPal does not take', () => {
    expect(cardFieldMessages(state(['INELIGIBLE_CARD_VENDOR']), ALL)).toStrictEqual({
      number: 'This card type is not accepted: use Visa, Mastercard, American Express or Discover',
    });
  });
});

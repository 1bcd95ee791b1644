import {
  type ErrorDetail,
  ISSUES,
  invalidBodyValue,
  invalidRequest,
  type Link,
  PaypalError,
  unprocessable,
} from './errors.js';
import { CONFIRM_VALIDATION_TEXTS } from './validation.js';

/** What the funding instrument does when the order is captured. */
export type CaptureOutcome = 'complete' | 'decline' | 'pending' | 'error';

/**
 * Test cards: every other Luhn-valid Visa, Mastercard, Amex or Discover number approves and captures.
 * `declineAtConfirm` cards fail confirm-payment-source; the others approve and behave as `outcome` at capture.
 */
export const TEST_CARDS = {
  '4111111111111111': { outcome: 'complete', note: 'Visa: approves, capture COMPLETED' },
  '4032039317984658': { outcome: 'complete', note: 'Visa (PayPal sandbox): approves, capture COMPLETED' },
  '5555555555554444': { outcome: 'complete', note: 'Mastercard: approves, capture COMPLETED' },
  '378282246310005': { outcome: 'complete', note: 'Amex (4-digit CVV): approves, capture COMPLETED' },
  '4000000000000002': { outcome: 'decline', note: 'approves; capture 422 INSTRUMENT_DECLINED' },
  '4000000000009995': {
    outcome: 'decline',
    declineAtConfirm: true,
    note: 'confirm-payment-source 422 PAYMENT_SOURCE_DECLINED_BY_PROCESSOR',
  },
  '4000000000000259': { outcome: 'pending', note: 'approves; capture PENDING (PENDING_REVIEW)' },
  '4000000000000119': { outcome: 'error', note: 'approves; capture 500 INTERNAL_SERVER_ERROR' },
} as const satisfies Record<string, { outcome: CaptureOutcome; declineAtConfirm?: boolean; note: string }>;

export type CardBrand = 'VISA' | 'MASTERCARD' | 'AMEX' | 'DISCOVER';

export function luhnValid(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = Number(number[i]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

export function brandOf(number: string): CardBrand | null {
  if (/^4/.test(number)) return 'VISA';
  if (/^(5[1-5]|2(2[2-9][1-9]|[3-6]\d\d|7[01]\d|720))/.test(number)) return 'MASTERCARD';
  if (/^3[47]/.test(number)) return 'AMEX';
  if (/^(6011|65|64[4-9])/.test(number)) return 'DISCOVER';
  return null;
}

export interface CardInput {
  name?: string;
  number?: string;
  expiry?: string;
  security_code?: string;
}

/** What the order keeps of a card: PayPal never echoes the number, only its last digits. */
export interface CardSource {
  name?: string;
  last_digits: string;
  brand: CardBrand;
  type: 'CREDIT';
  expiry: string;
}

const field = (name: string) => `/payment_source/card/${name}`;

/**
 * Checks a card as PayPal does before approving the order: syntax errors are 400, a card that cannot pay
 * is 422. Returns the card as the order shows it and how the capture will go.
 */
export function checkCard(
  card: CardInput,
  now: Date,
): { source: CardSource; outcome: CaptureOutcome; declineAtConfirm: boolean } {
  if (!card.number) {
    throw unprocessable([
      { field: field('number'), issue: 'CARD_NUMBER_REQUIRED', description: ISSUES.CARD_NUMBER_REQUIRED },
    ]);
  }
  if (!card.expiry) {
    throw unprocessable([
      { field: field('expiry'), issue: 'CARD_EXPIRY_REQUIRED', description: ISSUES.CARD_EXPIRY_REQUIRED },
    ]);
  }
  const syntax: ErrorDetail[] = [];
  if (!/^[0-9]{13,19}$/.test(card.number)) {
    syntax.push({
      field: field('number'),
      location: 'body',
      issue: 'INVALID_PARAMETER_SYNTAX',
      description: CONFIRM_VALIDATION_TEXTS.INVALID_PARAMETER_SYNTAX,
    });
  }
  const expiry = /^(20[0-9]{2})-(0[1-9]|1[0-2])$/.exec(card.expiry);
  if (!expiry) {
    syntax.push({
      field: field('expiry'),
      value: card.expiry,
      location: 'body',
      issue: 'INVALID_PARAMETER_SYNTAX',
      description: CONFIRM_VALIDATION_TEXTS.INVALID_PARAMETER_SYNTAX,
    });
  }
  if (card.security_code !== undefined && !/^[0-9]{3,4}$/.test(card.security_code)) {
    syntax.push({
      field: field('security_code'),
      location: 'body',
      issue: 'INVALID_PARAMETER_SYNTAX',
      description: CONFIRM_VALIDATION_TEXTS.INVALID_PARAMETER_SYNTAX,
    });
  }
  if (syntax.length > 0 || !expiry) throw invalidRequest(syntax);

  const brand = brandOf(card.number);
  if (!luhnValid(card.number)) {
    throw invalidBodyValue(field('number'), CONFIRM_VALIDATION_TEXTS.INVALID_PARAMETER_VALUE);
  }
  if (!brand) {
    throw unprocessable([
      {
        field: field('number'),
        issue: 'CARD_TYPE_NOT_SUPPORTED',
        description: ISSUES.CARD_TYPE_NOT_SUPPORTED,
      },
    ]);
  }
  // A card is valid through the last day of its expiry month.
  const [, year, month] = expiry;
  const firstDayAfter = Date.UTC(Number(year), Number(month), 1);
  if (firstDayAfter <= now.getTime()) {
    throw unprocessable([
      { field: field('expiry'), issue: 'CARD_EXPIRED', description: ISSUES.CARD_EXPIRED },
    ]);
  }
  if (card.security_code !== undefined && card.security_code.length !== (brand === 'AMEX' ? 4 : 3)) {
    throw unprocessable([
      {
        field: field('security_code'),
        issue: 'INVALID_SECURITY_CODE_LENGTH',
        description: ISSUES.INVALID_SECURITY_CODE_LENGTH,
      },
    ]);
  }
  const test = (TEST_CARDS as Record<string, { outcome: CaptureOutcome; declineAtConfirm?: boolean }>)[
    card.number
  ];
  return {
    source: {
      ...(card.name ? { name: card.name } : {}),
      last_digits: card.number.slice(-4),
      brand,
      type: 'CREDIT',
      expiry: card.expiry,
    },
    outcome: test?.outcome ?? 'complete',
    declineAtConfirm: test?.declineAtConfirm ?? false,
  };
}

export const instrumentDeclined = (extraLinks: Link[] = []) =>
  new PaypalError(
    422,
    'UNPROCESSABLE_ENTITY',
    [{ issue: 'INSTRUMENT_DECLINED', description: ISSUES.INSTRUMENT_DECLINED }],
    'orders',
    extraLinks,
  );

/** A card the processor refuses when the buyer confirms it: the order stays unapproved. */
export const paymentSourceDeclined = () =>
  unprocessable([
    {
      field: field('number'),
      issue: 'PAYMENT_SOURCE_DECLINED_BY_PROCESSOR',
      description: ISSUES.PAYMENT_SOURCE_DECLINED_BY_PROCESSOR,
    },
  ]);

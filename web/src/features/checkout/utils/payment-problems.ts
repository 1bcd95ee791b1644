/** What the buyer reads beside the pay button after a failed attempt: what to do, and PayPal's code for support. */
export interface PaymentProblem {
  message: string;
  /** PayPal's issue code (`INSTRUMENT_DECLINED`), shown small: support can look it up, the buyer need not. */
  code?: string;
}

/** A refusal by the store's server: its status, its own sentence, and PayPal's issue when PayPal refused. */
export class PaymentRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issue?: string,
  ) {
    super(message);
  }
}

const TRY_ANOTHER = 'Try another card or pay with PayPal.';
const CHECK_CARD = 'Check the card number, expiry date and CVV, then try again.';

/**
 * PayPal's issues in the buyer's words, each naming what to do. PayPal's own descriptions are written for
 * developers ("The instrument presented  was either declined by the processor or bank…") and are never shown.
 */
const ISSUE_MESSAGES: Record<string, string> = {
  INSTRUMENT_DECLINED: `Your card was declined. ${TRY_ANOTHER}`,
  TRANSACTION_REFUSED: `The payment was refused. ${TRY_ANOTHER}`,
  CARD_EXPIRED: 'Your card has expired. Check the expiry date or use another card.',
  CARD_BRAND_NOT_SUPPORTED:
    'This card type is not accepted. Use Visa, Mastercard, American Express or Discover, or pay with PayPal.',
  INVALID_SECURITY_CODE_LENGTH: 'The CVV does not fit this card. Check the 3 or 4 digits on your card.',
  INVALID_PARAMETER_VALUE: `The card details were not accepted. ${CHECK_CARD}`,
  INVALID_PARAMETER_SYNTAX: `The card details were not accepted. ${CHECK_CARD}`,
  CARD_NUMBER_REQUIRED: `The card details were not accepted. ${CHECK_CARD}`,
  CARD_EXPIRY_REQUIRED: `The card details were not accepted. ${CHECK_CARD}`,
  PAYER_ACTION_REQUIRED:
    'PayPal needs you to choose another way to pay. Click the PayPal button again and pick another card or bank account.',
  REDIRECT_PAYER_FOR_ALTERNATE_FUNDING:
    'PayPal needs you to choose another way to pay. Click the PayPal button again and pick another card or bank account.',
  ORDER_NOT_APPROVED: 'The payment was not approved in PayPal. Please try again.',
  MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED:
    'There were too many attempts to pay this order. Please wait a few minutes, then try again.',
  // PayPal forgets an order a few hours after it was created: the next click starts a new one.
  INVALID_RESOURCE_ID: 'This payment expired before it was completed. Please try again: no money was taken.',
};

const EXPIRED = ISSUE_MESSAGES.INVALID_RESOURCE_ID as string;
const UNREACHABLE = 'The store could not be reached. Check your internet connection and try again.';
const NOT_TAKEN = 'The payment did not go through. Please try again, or pay another way.';

/** PayPal's issue code in what the SDK threw (its error body's first detail), if any. */
function sdkIssue(error: object): string | undefined {
  const detail = (error as { details?: Array<{ issue?: unknown }> }).details?.[0]?.issue;
  if (typeof detail === 'string') return detail;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? /^([A-Z][A-Z0-9_]+):/.exec(message)?.[1] : undefined;
}

/**
 * What went wrong, for the buyer. PayPal's refusals are put in plain words with their code; the store's own
 * refusals (a changed cart, a product sold out, too many checkouts, PayPal not answering) are already sentences
 * for the buyer and are shown as they are.
 */
export function paymentProblem(error: unknown): PaymentProblem {
  if (error instanceof TypeError) return { message: UNREACHABLE };
  if (typeof error !== 'object' || error === null) return { message: NOT_TAKEN };
  const issue = error instanceof PaymentRequestError ? error.issue : sdkIssue(error);
  const known = issue ? ISSUE_MESSAGES[issue] : undefined;
  if (known) return { message: known, code: issue };
  if (error instanceof PaymentRequestError) {
    // The checkout this payment belonged to is unknown to the store (it never started, or is long gone).
    if (error.status === 404) return { message: EXPIRED };
    // A 422 carrying an issue is PayPal's refusal in PayPal's words; any other answer is the store's own sentence.
    if (error.status === 422 && issue) return { message: NOT_TAKEN, code: issue };
    return issue ? { message: error.message, code: issue } : { message: error.message };
  }
  return issue ? { message: NOT_TAKEN, code: issue } : { message: NOT_TAKEN };
}

import { describe, expect, it } from 'vitest';
import { PaymentRequestError, paymentProblem } from './payment-problems';

const PAYPAL_DECLINE =
  "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.";

/** An error as the PayPal SDK throws it after a refused card (its message is PayPal's own, issue first). */
const sdkError = (issue: string, description: string) =>
  Object.assign(new Error(`${issue}: ${description}`), { details: [{ issue, description }] });

describe('paymentProblem', () => {
  it('puts a declined card in plain words, PayPal code apart, never its description', () => {
    for (const error of [
      new PaymentRequestError(422, PAYPAL_DECLINE, 'INSTRUMENT_DECLINED'),
      sdkError('INSTRUMENT_DECLINED', PAYPAL_DECLINE),
      new Error(`INSTRUMENT_DECLINED: ${PAYPAL_DECLINE}`),
    ]) {
      expect(paymentProblem(error)).toStrictEqual({
        message: 'Your card was declined. Try another card or pay with PayPal.',
        code: 'INSTRUMENT_DECLINED',
      });
    }
  });

  it.each([
    ['CARD_EXPIRED', 'Your card has expired. Check the expiry date or use another card.'],
    ['INVALID_SECURITY_CODE_LENGTH', 'The CVV does not fit this card. Check the 3 or 4 digits on your card.'],
    [
      'INVALID_PARAMETER_VALUE',
      'The card details were not accepted. Check the card number, expiry date and CVV, then try again.',
    ],
    ['TRANSACTION_REFUSED', 'The payment was refused. Try another card or pay with PayPal.'],
  ])('names what to do for %s', (issue, message) => {
    expect(paymentProblem(sdkError(issue, 'PayPal words'))).toStrictEqual({ message, code: issue });
  });

  it("shows the store's own sentences (throttled, PayPal unavailable, cart changed) as they are", () => {
    const throttled =
      'Too many checkouts were started from your connection in a short time. Please wait 30 seconds and try again.';
    expect(paymentProblem(new PaymentRequestError(429, throttled))).toStrictEqual({ message: throttled });
    const unavailable = 'PayPal is not answering right now; please try again in a moment.';
    expect(paymentProblem(new PaymentRequestError(502, unavailable))).toStrictEqual({ message: unavailable });
    const refused = 'The payment provider refused the request; please try again later.';
    expect(paymentProblem(new PaymentRequestError(502, refused, 'PERMISSION_DENIED'))).toStrictEqual({
      message: refused,
      code: 'PERMISSION_DENIED',
    });
  });

  it('says an unknown or forgotten PayPal order expired, and an unknown PayPal issue did not go through', () => {
    const expired = 'This payment expired before it was completed. Please try again: no money was taken.';
    expect(paymentProblem(new PaymentRequestError(404, 'Unknown PayPal order'))).toStrictEqual({
      message: expired,
    });
    expect(
      paymentProblem(new PaymentRequestError(422, 'Whatever PayPal says', 'SOMETHING_NEW')),
    ).toStrictEqual({
      message: 'The payment did not go through. Please try again, or pay another way.',
      code: 'SOMETHING_NEW',
    });
  });

  it('tells a lost connection apart', () => {
    expect(paymentProblem(new TypeError('Failed to fetch'))).toStrictEqual({
      message: 'The store could not be reached. Check your internet connection and try again.',
    });
  });
});

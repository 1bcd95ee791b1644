import { randomBytes } from 'node:crypto';

/** One entry of a PayPal error's `details`. */
export interface ErrorDetail {
  field?: string;
  value?: string;
  location?: 'body' | 'path' | 'query' | 'header';
  issue: string;
  description: string;
}

export interface Link {
  href: string;
  rel: string;
  method?: string;
}

/** The v2 error body PayPal returns: `{ name, message, debug_id, details, links }`. */
export interface PaypalErrorBody {
  name: string;
  message: string;
  debug_id: string;
  details: ErrorDetail[];
  links: Link[];
}

type Api = 'orders' | 'payments' | 'webhooks';

export const debugId = () => randomBytes(7).toString('hex').slice(0, 13);

const MESSAGES = {
  INVALID_REQUEST: 'Request is not well-formed, syntactically incorrect, or violates schema.',
  AUTHENTICATION_FAILURE:
    'Authentication failed due to missing authorization header, or invalid authentication credentials.',
  NOT_AUTHORIZED: 'Authorization failed due to insufficient permissions.',
  RESOURCE_NOT_FOUND: 'The specified resource does not exist.',
  UNPROCESSABLE_ENTITY:
    'The requested action could not be performed, semantically incorrect, or failed business validation.',
  INTERNAL_SERVER_ERROR: 'An internal server error occurred.',
} as const;

/** A failure rendered exactly as PayPal renders it; thrown by the domain code, rendered by the router. */
export class PaypalError extends Error {
  constructor(
    readonly status: number,
    override readonly name: keyof typeof MESSAGES,
    readonly details: ErrorDetail[] = [],
    readonly api: Api = 'orders',
    readonly extraLinks: Link[] = [],
  ) {
    super(MESSAGES[name]);
  }

  toBody(): PaypalErrorBody {
    const links: Link[] =
      this.details.length === 0
        ? [{ href: 'https://developer.paypal.com/docs/api/overview/#error', rel: 'information_link' }]
        : this.details.map((detail) => ({
            href: `https://developer.paypal.com/docs/api/${this.api}/v2/#error-${detail.issue}`,
            rel: 'information_link',
            method: 'GET',
          }));
    return {
      name: this.name,
      message: this.message,
      debug_id: debugId(),
      details: this.details,
      links: [...links, ...this.extraLinks],
    };
  }
}

export const invalidRequest = (details: ErrorDetail[], api: Api = 'orders') =>
  new PaypalError(400, 'INVALID_REQUEST', details, api);

/** A 400 for one body field whose value is not one PayPal takes (`value`, the one sent, when it can be shown). */
export const invalidBodyValue = (field: string, description: string, value?: string) =>
  invalidRequest([
    {
      field,
      ...(value === undefined ? {} : { value }),
      location: 'body',
      issue: 'INVALID_PARAMETER_VALUE',
      description,
    },
  ]);

export const unprocessable = (details: ErrorDetail[], api: Api = 'orders', extraLinks: Link[] = []) =>
  new PaypalError(422, 'UNPROCESSABLE_ENTITY', details, api, extraLinks);

export const unprocessableIssue = (issue: string, description: string, api: Api = 'orders') =>
  unprocessable([{ issue, description }], api);

export const resourceNotFound = (field: string, value: string, api: Api = 'orders') =>
  new PaypalError(
    404,
    'RESOURCE_NOT_FOUND',
    [
      {
        field,
        value,
        location: 'path',
        issue: 'INVALID_RESOURCE_ID',
        description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
      },
    ],
    api,
  );

export const authenticationFailure = () => new PaypalError(401, 'AUTHENTICATION_FAILURE');

export const internalServerError = () => new PaypalError(500, 'INTERNAL_SERVER_ERROR');

/**
 * Issue texts word for word as PayPal's published specifications give them (a client may match on them), shared by
 * the validation and the negative-testing header.
 */
export const ISSUES = {
  INSTRUMENT_DECLINED:
    "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.",
  ORDER_NOT_APPROVED:
    "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid `payment_source` in the request.",
  ORDER_ALREADY_CAPTURED: "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
  ORDER_CANNOT_BE_CONFIRMED: "An order with status = 'COMPLETED' cannot be confirmed again.",
  TRANSACTION_REFUSED: 'The request was refused.',
  PAYER_ACTION_REQUIRED: 'Transaction cannot complete successfully, instruct the buyer to return to PayPal.',
  ORDER_COMPLETION_IN_PROGRESS:
    'The order was created with processing_instruction of ORDER_COMPLETE_ON_PAYMENT_APPROVAL. The customer has approved the payment and PayPal is still in the process of capturing the order on your behalf as instructed. Please try your request again.',
  MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED: 'You have exceeded the maximum number of payment attempts.',
  REDIRECT_PAYER_FOR_ALTERNATE_FUNDING:
    'Transaction failed. Redirect the payer to select another funding source.',
  DUPLICATE_INVOICE_ID:
    'Duplicate Invoice ID detected. To avoid a potential duplicate transaction your account setting requires that Invoice Id be unique for each transaction.',
  CARD_EXPIRED: 'The card is expired',
  CARD_TYPE_NOT_SUPPORTED: 'Processing of this card type is not supported. Use another card type.',
  PAYMENT_SOURCE_DECLINED_BY_PROCESSOR:
    'The provided payment source is declined by the processor. Please try again with a different payment source by creating a new order.',
  PAYMENT_SOURCE_CANNOT_BE_USED:
    'The provided payment source cannot be used to pay for the order. Please try again with a different payment source by creating a new order.',
  INVALID_SECURITY_CODE_LENGTH: 'The security_code length is invalid for the specified card brand.',
  CARD_NUMBER_REQUIRED: 'The card number is required when attempting to process payment with card.',
  CARD_EXPIRY_REQUIRED: 'The card expiry is required when attempting to process payment with card.',
  CAPTURE_FULLY_REFUNDED: 'The capture has already been fully refunded',
  PENDING_CAPTURE:
    'Cannot initiate a refund as the capture is pending. Capture is typically pending when the payer has funded the transaction using e-check/bank funded.',
  REFUND_AMOUNT_EXCEEDED:
    'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
  REFUND_CAPTURE_CURRENCY_MISMATCH: 'Refund must be in the same currency as the capture',
  REFUND_NOT_ALLOWED: 'Capture cannot be refunded.',
  REFUND_FAILED_INSUFFICIENT_FUNDS:
    'Capture could not be refunded due to insufficient funds. Please check to see if you have sufficient funds in your PayPal account or if the bank account linked to your PayPal account is verified and has sufficient funds.',
  REFUND_TIME_LIMIT_EXCEEDED: 'You are over the time limit to perform a refund on this capture',
  MAX_NUMBER_OF_REFUNDS_EXCEEDED: 'You have exceeded the maximum number of refund attempts for this capture.',
  INVALID_CURRENCY_CODE:
    'Currency code is invalid or is not currently supported. Please refer https://developer.paypal.com/api/rest/reference/currency-codes/ for list of supported currency codes.',
  MULTI_CURRENCY_ORDER:
    'Multiple differing values of currency_code are not supported. Entire Order request must have the same currency_code.',
  DECIMAL_PRECISION: 'If the currency supports decimals, only two decimal place precision is supported.',
  UNSUPPORTED_INTENT:
    '`intent=AUTHORIZE` is not supported for multiple purchase units. Only `intent=CAPTURE` is supported.',
  REFERENCE_ID_REQUIRED:
    "'reference_id' is required for each 'purchase_unit' if multiple 'purchase_unit' are provided.",
} as const;

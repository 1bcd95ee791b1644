import { AppError } from '@licensestore/domain';

/**
 * A payment PayPal refused or the store could not take, with PayPal's issue code when there is one
 * (`INSTRUMENT_DECLINED` tells the browser to restart the payment). Rendered as `{ error, issue }`.
 */
export class PaymentIssueError extends AppError {
  constructor(
    status: number,
    message: string,
    readonly issue?: string,
  ) {
    super(status, message);
  }
}

import { approveHeldOrder } from '../processors/approve-held-order.js';
import { assignKeys } from '../processors/assign-keys.js';
import type { ProcessorContext } from '../processors/context.js';
import { issueReceipt } from '../processors/issue-receipt.js';
import { placeCapturedOrder } from '../processors/place-captured-order.js';
import { recordOrderKeys } from '../processors/record-order-keys.js';
import { releaseKeys } from '../processors/release-keys.js';
import { sendDeliveryEmail } from '../processors/send-delivery-email.js';
import { sendLowStockAlert } from '../processors/send-low-stock-alert.js';
import { sendRefundEmail } from '../processors/send-refund-email.js';
import { sendReviewEmail } from '../processors/send-review-email.js';
import type { JobProcessor } from './processor.js';

/** Every queue this role consumes. */
export const registeredProcessors = (context: ProcessorContext): readonly JobProcessor[] => [
  placeCapturedOrder(context),
  assignKeys(context),
  recordOrderKeys(context),
  releaseKeys(context),
  sendDeliveryEmail(context),
  sendLowStockAlert(context),
  sendRefundEmail(context),
  sendReviewEmail(context),
  approveHeldOrder(context),
  issueReceipt(context),
];

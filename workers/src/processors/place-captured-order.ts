import { checkoutDecider, checkoutStream } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import { placeCheckoutOrder } from '@licensestore/platform/checkout-orders';
import { z } from 'zod';
import { type Cause, causeSchema } from '../jobs/causation.js';
import { defineProcessor } from '../jobs/processor.js';
import { type JobRequest, jobFor } from '../jobs/queues.js';
import type { ProcessorContext } from './context.js';

const QUEUE = 'place-captured-order';
const schema = z.object({
  paypalOrderId: z.string().min(1),
  /** The order the checkout names, for the job's log lines; the checkout stream is what the job reads. */
  orderId: z.uuid(),
  cause: causeSchema,
});
type PlaceCapturedOrder = z.infer<typeof schema>;

/**
 * How long a captured checkout leaves the api to place its order (it does so right after recording the capture)
 * before the workers look: long enough that they find it placed on every purchase but one whose api died between the
 * two appends.
 */
export const ORDER_REPAIR_DELAY_MS = 30_000;

/** A CheckoutCaptured event, looked at again once the api has had its time to place the order. */
export const placeCapturedOrderJob = (
  checkout: Omit<PlaceCapturedOrder, 'cause'>,
  cause: Cause,
  delayMs: number,
): JobRequest => ({ ...jobFor(QUEUE, { ...checkout, cause } satisfies PlaceCapturedOrder), delayMs });

/**
 * Places the order a captured checkout names when its stream is missing (the api ended between the checkout's and the
 * order's appends, and neither a retried capture nor PayPal's webhook came), with the api's own decision; an order
 * placed already is left as it is, so the job and the api never place one twice.
 */
export const placeCapturedOrder = ({ eventStore, logger }: ProcessorContext) =>
  defineProcessor({
    queue: QUEUE,
    schema,
    async process({ paypalOrderId, cause }) {
      const checkout = await loadStream(eventStore, checkoutStream(paypalOrderId), checkoutDecider);
      const { order, placed } = await placeCheckoutOrder(eventStore, checkout);
      if (!placed) return 'already placed';
      logger.warn(
        { paypalOrderId, orderId: order.orderId, correlationId: cause.correlationId },
        'placed the order of a captured checkout that had none',
      );
      return 'placed';
    },
  });

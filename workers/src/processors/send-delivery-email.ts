import {
  liveUnits,
  type OrderState,
  orderDecider,
  orderStream,
  type PlacedOrder,
  productDecider,
  productStream,
} from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import type { EventStore } from '@licensestore/domain/events';
import { renderDeliveryEmail } from '../mail/delivery-email.js';
import { downloadFor, type ProductDownload } from '../mail/downloads.js';
import type { ProcessorContext } from './context.js';
import { defineOrderEmailProcessor, orderEmailQueue, recordOnOrder } from './hand-over.js';

const deliveryEmails = orderEmailQueue('send-delivery-email', {});

/** The delivery email caused by `cause` (an OrderFulfilled or a DeliveryEmailResendRequested): its trigger. */
export const sendDeliveryEmailJob = deliveryEmails.job;

/** The product's download as it is now; null once the product is deleted (or never was in the catalogue). */
async function productDownloadOf(eventStore: EventStore, productId: string): Promise<ProductDownload | null> {
  const { state } = await loadStream(eventStore, productStream(productId), productDecider);
  if (state.status !== 'active') return null;
  return {
    downloadUrl: state.fields.downloadUrl ?? null,
    installationNotes: state.fields.installationNotes ?? null,
  };
}

/** The order as it stood right after its event that triggers an e-mail, and that event's type. */
interface TriggerPoint {
  type: string;
  order: OrderState;
}

/** The order now, and as it stood at the event `trigger` (null when its stream has no such event). */
async function orderNowAndAt(eventStore: EventStore, orderId: string, trigger: string) {
  let order: OrderState = orderDecider.initialState;
  let atTrigger: TriggerPoint | null = null;
  for await (const recorded of eventStore.readStream(orderStream(orderId))) {
    const event = orderDecider.parse(recorded.type, recorded.data);
    if (event) order = orderDecider.evolve(order, event);
    if (recorded.id === trigger) atTrigger = { type: recorded.type, order };
  }
  return { order, atTrigger };
}

/**
 * Of a held order's fulfilment and its approval, the later one delivers: its keys are e-mailed once, by whichever
 * event found the other already recorded (the order stream orders them, whatever order their jobs run in).
 */
function otherTriggerDelivers(atTrigger: TriggerPoint | null): string | null {
  if (atTrigger === null || atTrigger.order.status === 'absent') return null;
  const { type, order } = atTrigger;
  if (type === 'OrderFulfilled' && order.review === 'held') return 'its approval sends it';
  if (type === 'OrderApproved' && !order.fulfilled) return 'its last key sends it';
  return null;
}

/**
 * Sends the order's keys once per trigger (never for a cancelled or refunded order, nor for a held or rejected one),
 * recorded on the order (DeliveryEmailSent).
 */
export const sendDeliveryEmail = (context: ProcessorContext) =>
  defineOrderEmailProcessor(context, {
    queue: deliveryEmails,
    kind: () => 'delivery',
    recordSent: recordOnOrder('RecordDeliveryEmailSent'),
    async load({ orderId, cause }) {
      const { order, atTrigger } = await orderNowAndAt(context.eventStore, orderId, cause.eventId);
      if (order.status === 'absent') return 'no such order';
      if (order.emailsSent.includes(cause.eventId)) return 'already sent';
      return { customer: order.customer, order, atTrigger };
    },
    async compose(_data, { order, atTrigger }, heading) {
      // Keys that reached an order after it was cancelled or refunded are not the customer's to use.
      if (order.status === 'cancelled' || order.status === 'refunded')
        return `not sending: order ${order.status}`;
      // A held order's keys are set aside, not the buyer's until approved; a rejected one's never are.
      if (order.review === 'held' || order.review === 'rejected')
        return `not sending: review ${order.review}`;
      const deliveredByOther = otherTriggerDelivers(atTrigger);
      if (deliveredByOther) return `not sending: ${deliveredByOther}`;
      return renderDeliveryEmail({ ...heading, lines: await deliveredLines(context, order) });
    },
  });

/** The order's lines with the keys of the units still the customer's (a refunded unit's key is not theirs to use). */
async function deliveredLines({ eventStore, keyVault, publicUrl }: ProcessorContext, order: PlacedOrder) {
  const live = liveUnits(order);
  return Promise.all(
    order.lines.flatMap((line) => {
      const units = live.filter((unit) => unit.lineId === line.lineId);
      if (units.length === 0) return [];
      const sealed = new Map((order.keys[line.lineId] ?? []).map((key) => [key.keyId, key.key]));
      return [
        (async () => ({
          productName: line.productName,
          quantity: units.length,
          unitPrice: line.unitPrice,
          keys: units.flatMap((unit) => {
            const key = unit.keyId === null ? undefined : sealed.get(unit.keyId);
            return key === undefined ? [] : [keyVault.open(key)];
          }),
          download: downloadFor(
            await productDownloadOf(eventStore, line.productId),
            line.productId,
            publicUrl,
          ),
        }))(),
      ];
    }),
  );
}

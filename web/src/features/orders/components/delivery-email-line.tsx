import type { OrderView } from '@licensestore/domain';
import { Mail } from 'lucide-react';
import { keysTakenBack, type OrderStage } from '../utils/order-stage';

/**
 * Where the keys go by email, in the tense the store can vouch for: "has been sent" only once the delivery email
 * is recorded as sent, "will be sent" before; nothing for a declined payment, for which no email goes out, nor for
 * a cancelled or refunded order that never had one. An address wraps as a whole onto its own line on a phone, and
 * breaks inside only when it is wider than the line.
 */
export function DeliveryEmailLine({
  order,
  stage,
}: {
  order: Pick<OrderView, 'customerEmail' | 'deliveryEmailSentAt'>;
  stage: OrderStage;
}) {
  if (stage === 'declined') return null;
  if (keysTakenBack(stage) && !order.deliveryEmailSentAt) return null;
  const address = <strong className="break-words text-foreground">{order.customerEmail}</strong>;
  let line: React.ReactNode;
  if (order.deliveryEmailSentAt) line = <>A confirmation email has been sent to {address}</>;
  else if (stage === 'under-review')
    line = <>Your license keys will be sent to {address} once PayPal completes the payment.</>;
  else if (stage === 'being-checked')
    line = <>Your license keys will be sent to {address} once the order has been checked.</>;
  else line = <>A confirmation email will be sent to {address} as soon as your license keys are ready.</>;
  return (
    <p
      aria-live="polite"
      className="flex items-start gap-2 border-t border-border pt-4 text-sm text-muted-foreground"
    >
      <Mail aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span className="min-w-0">{line}</span>
    </p>
  );
}

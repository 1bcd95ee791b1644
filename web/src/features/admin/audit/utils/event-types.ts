/** Every event type the store records (domain/src/*\/events.ts), for the log's type filter. */
export const EVENT_TYPES = [
  'ProductCreated',
  'ProductUpdated',
  'ProductDeleted',
  'CheckoutStarted',
  'CheckoutCaptured',
  'OrderCaptured',
  'OrderPaymentCompleted',
  'OrderPaymentDenied',
  'OrderRefunded',
  'OrderRefundRequested',
  'OrderRefundCompleted',
  'OrderRefundFailed',
  'OrderLicenceKeysAssigned',
  'OrderFulfilled',
  'DeliveryEmailResendRequested',
  'DeliveryEmailSent',
  'RefundEmailSent',
  'OrderStatusChanged',
  'OrderReopened',
  'LicenceKeyAdded',
  'LicenceKeyRemoved',
  'LicenceKeysRequested',
  'LicenceKeysAssigned',
  'LicenceKeyStockLow',
  'LicenceKeyRevoked',
  'LicenceKeyReturned',
  'LicenceKeysRequestWithdrawn',
  'LicenceKeyRevealed',
  'LicenceKeysRevealed',
  'OrderReceiptRequested',
  'ReceiptNumberAssigned',
  'OrderReceiptIssued',
  'OrderHeldForReview',
  'OrderApproved',
  'OrderRejected',
  'OrderReviewEmailSent',
  'RiskRulesChanged',
  'RiskWhatIfRun',
] as const;

/**
 * What each event type is called on screen, in plain words and the screens' one spelling ("license"). The stored
 * types keep their names; a screen shows one only as a detail an auditor opens.
 */
const LABELS: Record<string, string> = {
  ProductCreated: 'Product created',
  ProductUpdated: 'Product edited',
  ProductDeleted: 'Product deleted',
  CheckoutStarted: 'Checkout started',
  CheckoutCaptured: 'Payment taken at checkout',
  OrderCaptured: 'Order placed',
  OrderPaymentCompleted: 'Payment completed',
  OrderPaymentDenied: 'Payment declined',
  OrderRefunded: 'Order refunded',
  OrderRefundRequested: 'Refund requested',
  OrderRefundCompleted: 'Refund completed',
  OrderRefundFailed: 'Refund failed',
  OrderLicenceKeysAssigned: 'License keys recorded on the order',
  OrderFulfilled: 'Order fulfilled',
  DeliveryEmailResendRequested: 'Delivery email requested again',
  DeliveryEmailSent: 'Delivery email sent',
  RefundEmailSent: 'Refund email sent',
  OrderStatusChanged: 'Status changed',
  OrderReopened: 'Order reopened',
  LicenceKeyAdded: 'License key added',
  LicenceKeyRemoved: 'License key removed',
  LicenceKeysRequested: 'License keys requested',
  LicenceKeysAssigned: 'License keys assigned',
  LicenceKeyStockLow: 'License keys running low',
  LicenceKeyRevoked: 'License key revoked',
  LicenceKeyReturned: 'License key returned to stock',
  LicenceKeysRequestWithdrawn: 'License key request withdrawn',
  LicenceKeysRevealed: 'License keys shown',
  OrderReceiptRequested: 'Receipt number requested',
  ReceiptNumberAssigned: 'Receipt number assigned',
  OrderReceiptIssued: 'Receipt issued',
  LicenceKeyRevealed: 'License key shown in the back office',
  OrderHeldForReview: 'Held for review',
  OrderApproved: 'Approved after review',
  OrderRejected: 'Rejected after review',
  OrderReviewEmailSent: 'Review email sent',
  RiskRulesChanged: 'Risk rules changed',
  RiskWhatIfRun: 'Risk rules what-if run',
};

/**
 * An event type in plain words: its label, or for a type without one its name split into words
 * ('LicenceKeyAudited' → 'License key audited').
 */
export function eventTypeLabel(type: string): string {
  const label = LABELS[type];
  if (label) return label;
  const words = type
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\blicense\b/g, 'license');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export { type CaptureOutcome, TEST_CARDS } from './cards.js';
export {
  clientAuthorization,
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_WEBHOOK_ID,
  NO_CARDS_CLIENT_ID,
} from './credentials.js';
export type { ErrorDetail, PaypalErrorBody } from './errors.js';
export {
  MOUNT_PATH,
  type RunningPaypalSandbox,
  type StartPaypalSandboxOptions,
  startPaypalSandbox,
} from './main.js';
export type { Money } from './money.js';
export type {
  BuyerChoice,
  Capture,
  CaptureStatus,
  OrderStatus,
  Refund,
  SandboxOrder,
  SandboxState,
} from './orders.js';
export { createPaypalSandbox, type PaypalSandbox, type PaypalSandboxOptions } from './sandbox.js';
export {
  AUTH_ALGO,
  CERT_URL,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventType,
} from './webhooks.js';

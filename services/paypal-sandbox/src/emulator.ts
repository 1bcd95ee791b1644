import type { Logger } from '@licensestore/platform/logging';
import type { CaptureRef, RefundRef, SandboxState } from './orders.js';
import type { WebhookDelivery, WebhookEvent, WebhookEventType } from './webhooks.js';

/** The emulator's state and powers, as the public API (sandbox.ts) builds them and the routes use them. */
export interface Emulator {
  state: SandboxState;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  webhookSecret: Buffer;
  captureLatencyMs: number;
  logger: Logger;
  /** Serialises work on one order (capture, refund, approval). */
  withLock<T>(key: string, work: () => Promise<T> | T): Promise<T>;
  /** Sends an event about a capture or refund and remembers it as the order's latest. */
  emit(eventType: WebhookEventType, ref: CaptureRef | RefundRef): Promise<WebhookDelivery>;
  resend(eventId: string): Promise<WebhookDelivery>;
  lastEventOf(orderId: string): WebhookEvent | undefined;
  settle(ref: CaptureRef, result: 'complete' | 'deny'): Promise<{ delivery: Promise<WebhookDelivery> }>;
  deliveries: readonly WebhookDelivery[];
}

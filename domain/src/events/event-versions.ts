import { orderCapturedV1ToV2 } from '../orders/upcasters.js';
import { EventVersions } from './upcasting.js';

/**
 * The current version of every event type, as the upcasters that lead to it (ADR 014). A shape change adds its
 * upcaster at the end of its type's list; stored events are never rewritten.
 */
export const eventVersions = new EventVersions({
  OrderCaptured: [orderCapturedV1ToV2],
});

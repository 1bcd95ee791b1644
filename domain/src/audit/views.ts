import type { DashboardView } from '../dashboard/index.js';
import type { Actor } from '../events/port.js';
import type { ReviewStatus } from '../orders/events.js';

/**
 * What the audit routes answer with (GET /api/audit/…), for the API and the back office. Types only, so the web
 * client imports them without pulling the deciders into its bundle.
 */

/** One recorded event as people read it: keys masked, the acting admin named when known. */
export interface AuditEventView {
  id: string;
  /** Global position, string-comparable: it orders events of different streams. */
  position: string;
  stream: string;
  revision: number;
  type: string;
  recordedAt: string;
  actor: Actor & { name?: string };
  correlationId: string;
  causationId: string;
  data: unknown;
}

/** A stored event that does not read, which the projectors and the reactor parked and passed. */
export interface ParkedEventView {
  eventId: string;
  position: string;
  streamId: string;
  type: string;
  /** Why it does not read (the schema's complaints, or the version it was written in). */
  reason: string;
  /** The projectors (by name) and reactors (`reactor:<name>`) that parked it. */
  consumers: string[];
  firstSeenAt: string;
}

/** The parked events, oldest in the log first: how many there are, and the first of them. */
export interface ParkedEventsView {
  total: number;
  events: ParkedEventView[];
}

/** A page of the store-wide log, newest first; `next` is the cursor of the older page (null on the last). */
export interface AuditEventPage {
  events: AuditEventView[];
  next: string | null;
}

/** An order's history: its streams' events, and (`correlated`) others recorded under the same correlation. */
export interface OrderHistoryEntry extends AuditEventView {
  correlated: boolean;
}

export interface OrderLineAsOf {
  lineId: string;
  productId: string;
  productName: string;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
  /** The keys the line held then, masked to their last characters. */
  keys: Array<{ keyId: string; key: string }>;
}

/** An order as it stood at `asOf`, folded from its own events recorded by then. */
export interface OrderAsOfView {
  asOf: string;
  orderId: string;
  status: string;
  payment: string;
  customer: { name: string; email: string };
  lines: OrderLineAsOf[];
  total: string;
  currency: string;
  createdAt: string;
  fulfilled: boolean;
  /** Where a review by the risk rules stood then; null for an order they had not held. */
  reviewStatus: ReviewStatus | null;
  /** The last event folded: what the state is as of. */
  lastEvent: { type: string; recordedAt: string; position: string };
}

/** The dashboard's figures as they stood at `asOf`; `events` counts the events of the log folded to get them. */
export interface DashboardAsOfView extends DashboardView {
  asOf: string;
  events: number;
}

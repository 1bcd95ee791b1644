import type { ColumnType } from 'kysely';

/**
 * A license key's custody history (`key-history` projector): one row per event that did something to the key,
 * in log order. `kind` says what, in the back office's words: imported, removed, assigned, delivered, revealed,
 * and, for inventory events added later that name a key, their own event type.
 */
export type KeyHistoryTable = {
  key_id: string;
  position: string;
  stream: string;
  event_type: string;
  kind: string;
  order_id: string | null;
  at: ColumnType<Date, string | Date, string | Date>;
  actor_type: string;
  actor_id: string;
  correlation_id: string;
  details: ColumnType<Record<string, unknown>, string, string>;
};

export type KeyHistoryTables = { key_history: KeyHistoryTable };

/** One step of a key's history as GET /api/license-keys/:keyId/history answers it. */
export interface KeyHistoryEntry {
  kind: string;
  eventType: string;
  at: string;
  position: string;
  orderId: string | null;
  actor: { type: 'customer' | 'admin' | 'system'; id: string; name?: string };
  correlationId: string;
  /**
   * What the step adds: `batch` (the import's correlation id) and `batchSize` when imported; `lineId` when
   * assigned; `messageId` and `recipient` when delivered; `channel`, `viewer` and `clientHash` when revealed.
   */
  details: Record<string, unknown>;
}

export interface KeyHistoryView {
  keyId: string;
  productId: string | null;
  productName: string | null;
  /** Always masked: the history is evidence of where the key went, not a way to take it. */
  key: string | null;
  status: string | null;
  orderId: string | null;
  entries: KeyHistoryEntry[];
}

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

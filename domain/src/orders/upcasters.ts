/**
 * OrderCaptured v1 → v2. Version 1 recorded only the status the decider gave the order, so readers inferred the
 * payment from it; version 2 also records the fact it came from, PayPal's capture status. Every v1 event was
 * written by the rule PENDING → 'pending', COMPLETED → 'processing', which this inverts; data that rule never
 * wrote stays as it is (its capture status is unknown, so the v2 schema refuses it rather than guess).
 */
export function orderCapturedV1ToV2(data: unknown): unknown {
  if (typeof data !== 'object' || data === null) return data;
  const { status } = data as { status?: unknown };
  if (status === 'pending') return { ...data, captureStatus: 'PENDING' };
  if (status === 'processing') return { ...data, captureStatus: 'COMPLETED' };
  return data;
}

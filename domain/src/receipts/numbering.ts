import { z } from 'zod';

/**
 * Receipt numbers: `<year>-<sequence>`, the sequence six digits wide (zero-padded, growing wider past 999,999),
 * counted from 1 in each UTC calendar year without a gap. The year is the one the order was paid in, whenever its
 * number is assigned, so a payment at 23:59:59 on 31 December is numbered in that year even if its job runs later.
 */
export const receiptYear = (paidAt: string) => new Date(paidAt).getUTCFullYear();

export const formatReceiptNumber = (year: number, sequence: number) =>
  `${year}-${String(sequence).padStart(6, '0')}`;

/** One stream per year holds its numbers in order: the event at revision n is number n + 1. */
export const receiptsStream = (year: number) => `receipts-${year}`;

export const receiptEventSchemas = {
  /** The year's next number went to this order. */
  ReceiptNumberAssigned: z.object({
    year: z.number().int().min(2000).max(9999),
    sequence: z.number().int().positive(),
    receiptNumber: z.string().regex(/^\d{4}-\d{6,}$/),
    orderId: z.uuid(),
    assignedAt: z.iso.datetime(),
  }),
};

export type ReceiptNumberAssigned = z.infer<typeof receiptEventSchemas.ReceiptNumberAssigned>;

/** A receipts-stream event, validated; null for any other type. */
export function parseReceiptEvent(type: string, data: unknown): ReceiptNumberAssigned | null {
  return type === 'ReceiptNumberAssigned' ? receiptEventSchemas.ReceiptNumberAssigned.parse(data) : null;
}

/**
 * The number after the stream's last one (1 for a year without any): decided from the last event alone, since the
 * append that records it expects that event's revision, and so fails if anyone took a number meanwhile.
 */
export function nextReceiptNumber(
  last: ReceiptNumberAssigned | null,
  assignment: { orderId: string; year: number; now: string },
): ReceiptNumberAssigned {
  if (last && last.year !== assignment.year) {
    throw new Error(`the receipts of ${assignment.year} cannot follow a number of ${last.year}`);
  }
  const sequence = (last?.sequence ?? 0) + 1;
  return {
    year: assignment.year,
    sequence,
    receiptNumber: formatReceiptNumber(assignment.year, sequence),
    orderId: assignment.orderId,
    assignedAt: assignment.now,
  };
}

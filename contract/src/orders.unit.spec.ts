import type { OrderView } from '@licensestore/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { orderItemViewSchema, orderViewSchema } from './orders.js';
import { refundRequestSchema } from './refunds.js';
import type { ViewShape } from './view-shape.js';

const order = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  customerName: 'Ada Lovelace',
  customerEmail: 'ada@example.com',
  total: '59.98',
  status: 'completed',
  createdAt: '2026-12-06T09:00:00.000Z',
  paymentStatus: 'completed',
  deliveryEmailSentAt: null,
  receiptNumber: '2026-000001',
};

const line = {
  id: 'line-1',
  productName: 'Office Suite',
  quantity: 2,
  price: '29.99',
  licenseKey: 'AAAAA-BBBBB',
  licenseKeys: ['AAAAA-BBBBB', '*****CCCCC'],
  keyStatuses: ['valid', 'refunded'],
  refundedUnits: 1,
  licenseKeyIds: ['7c9e6679-7425-40de-944b-e07fc1f90ae7', '16fd2706-8baf-433b-82eb-8c7fada847da'],
  downloadUrl: null,
  installationNotes: null,
};

describe('the order contract', () => {
  describe('an order line', () => {
    it('keeps every key and refund field the api answers', () => {
      expect(orderItemViewSchema.parse(line)).toEqual(line);
    });

    it('refuses a price that is not an amount', () => {
      expect(orderItemViewSchema.safeParse({ ...line, price: 29.99 }).success).toBe(false);
    });
  });

  describe('an order', () => {
    it('refuses one without where its payment stands', () => {
      const { paymentStatus: _left, ...withoutPayment } = order;
      expect(orderViewSchema.safeParse(withoutPayment).success).toBe(false);
    });
  });

  describe('a view schema', () => {
    it('must name every field of its view', () => {
      // @ts-expect-error a schema that leaves out a field of OrderView does not compile
      const partial = { id: z.string() } satisfies ViewShape<OrderView>;
      expect(Object.keys(partial)).toEqual(['id']);
    });
  });

  describe('a refund request', () => {
    it('names the units or all of them, always with a reason', () => {
      expect(refundRequestSchema.safeParse({ all: true, reason: 'asked by the customer' }).success).toBe(
        true,
      );
      expect(refundRequestSchema.safeParse({ reason: 'asked by the customer' }).success).toBe(false);
      expect(refundRequestSchema.safeParse({ all: true }).success).toBe(false);
    });
  });
});

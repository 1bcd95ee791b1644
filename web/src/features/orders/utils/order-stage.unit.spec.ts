import { describe, expect, it } from 'vitest';
import { keysTakenBack, keysWork, orderStage } from './order-stage';

const paid = {
  paymentStatus: 'completed',
  status: 'processing',
  reviewStatus: null,
  refundedTotal: '0.00',
} as const;

describe('orderStage', () => {
  describe('when the risk rules hold a paid order', () => {
    it('says it is being checked, its keys neither working nor taken back yet', () => {
      const stage = orderStage({ ...paid, reviewStatus: 'held' });
      expect(stage).toBe('being-checked');
      expect(keysWork(stage)).toBe(false);
      expect(keysTakenBack(stage)).toBe(false);
    });

    it('says PayPal reviews the payment first while the capture is pending', () => {
      expect(orderStage({ ...paid, paymentStatus: 'pending', reviewStatus: 'held' })).toBe('under-review');
    });
  });

  describe('when its review ended', () => {
    it('is paid once approved, and not approved (no keys to come) once rejected, refunded or not yet', () => {
      expect(orderStage({ ...paid, reviewStatus: 'approved' })).toBe('paid');
      expect(orderStage({ ...paid, reviewStatus: 'rejected' })).toBe('not-approved');
      const refunded = {
        ...paid,
        reviewStatus: 'rejected',
        paymentStatus: 'refunded',
        status: 'refunded',
      } as const;
      expect(orderStage(refunded)).toBe('not-approved');
      expect(keysTakenBack('not-approved')).toBe(true);
    });
  });
});

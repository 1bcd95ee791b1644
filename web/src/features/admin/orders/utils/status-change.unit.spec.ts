import { describe, expect, it } from 'vitest';
import { statusChangeQuestion } from './status-change';

describe('statusChangeQuestion', () => {
  describe('for a cancelled order set to pending or completed', () => {
    it.each(['pending', 'completed'] as const)(
      'asks to reopen it (%s), saying it takes keys from stock and emails the buyer',
      (to) => {
        const question = statusChangeQuestion('cancelled', to, '#1A2B3C4D');
        expect(question?.title).toBe('Reopen order #1A2B3C4D?');
        expect(question?.description).toContain('takes new license keys from stock');
        expect(question?.description).toContain('emails them to the buyer');
        expect(question?.description).toContain('waits in line until keys are imported');
        expect(question?.confirmLabel).toBe('Reopen order');
        expect(question?.tone).toBe('primary');
      },
    );
  });

  describe('for any order set to cancelled', () => {
    it('asks first, naming what happens to the keys and that it can be reopened', () => {
      const question = statusChangeQuestion('completed', 'cancelled', '#1A2B3C4D');
      expect(question?.title).toBe('Cancel order #1A2B3C4D?');
      expect(question?.description).toContain(
        'a key already delivered is revoked and can never be used again, any other returns to stock',
      );
      expect(question?.description).not.toContain('cannot be reopened');
      expect(question?.tone).toBe('destructive');
    });
  });

  describe('for a paid order set back to pending', () => {
    it.each(['completed', 'processing'] as const)(
      'asks first (%s), saying it only relabels the order',
      (from) => {
        const question = statusChangeQuestion(from, 'pending', '#1A2B3C4D');
        expect(question?.title).toBe('Set paid order #1A2B3C4D back to Pending?');
        expect(question?.description).toContain(
          'no money moves, no email is sent and its license keys keep working',
        );
        expect(question?.description).toContain('show it as not yet paid');
        expect(question?.confirmLabel).toBe('Set to Pending');
      },
    );
  });

  describe('for the other changes', () => {
    it.each([
      ['processing', 'completed'],
      ['pending', 'completed'],
      ['refunded', 'completed'],
    ] as const)('asks nothing (%s to %s)', (from, to) => {
      expect(statusChangeQuestion(from, to, '#1A2B3C4D')).toBeNull();
    });
  });
});

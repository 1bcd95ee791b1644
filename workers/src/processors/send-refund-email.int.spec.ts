import { randomUUID } from 'node:crypto';
import { orderDecider, orderStream } from '@licensestore/domain';
import { handleCommand, loadStream } from '@licensestore/domain/commands';
import { silentLogger } from '@licensestore/platform/logging';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMail } from '../../../test/support/mail.js';
import { deliveriesByMessageId } from '../../../test/support/smtp-server.js';
import { openWorkersFixture, runJob, testSideEffects, type WorkersFixture } from '../testing/fixtures.js';
import { fulfilOrder, placeOrder } from '../testing/store.js';
import { createProcessorContext } from './context.js';
import { sendRefundEmail, sendRefundEmailJob } from './send-refund-email.js';

/** PayPal refunds `amount` of the order: one unit's worth refunds that unit. */
async function refund(fixture: WorkersFixture, orderId: string, amount: string) {
  const { events } = await handleCommand(
    fixture.env.eventStore,
    orderStream(orderId),
    orderDecider,
    {
      type: 'CompleteOrderRefund',
      orderId,
      captureId: `CAPTURE-${orderId}`,
      refundId: null,
      paypalRefundId: `REFUND-${randomUUID()}`,
      amount,
      now: new Date().toISOString(),
    },
    { actor: { type: 'system', id: 'paypal-webhook' }, correlationId: 'refund', causationId: 'webhook' },
  );
  const completed = events.find((event) => event.type === 'OrderRefundCompleted');
  if (completed?.type !== 'OrderRefundCompleted') throw new Error('no refund completed');
  return completed.data;
}

describe('Refund email', () => {
  let fixture: WorkersFixture;

  beforeEach(async () => {
    fixture = await openWorkersFixture();
    await fixture.smtp.open();
  });

  afterEach(() => fixture.close());

  const mailing = () =>
    testSideEffects({
      mail: { ...testSideEffects().mail, smtpUrl: fixture.smtp.url },
      supportEmail: 'help@store.test',
    });

  describe('when PayPal refunds one unit of a delivered order', () => {
    it('emails the customer the amount, the key that no longer works, the net paid and the updated receipt, once', async () => {
      const sideEffects = mailing();
      await fixture.startWorkers(sideEffects);
      const orderId = await placeOrder(fixture.env.eventStore, [{ productId: randomUUID(), quantity: 2 }], {
        customer: { name: 'Grace Hopper', email: 'grace@example.com' },
      });
      await fulfilOrder(fixture.env.eventStore, sideEffects.keyVault, orderId);
      const { units } = await refund(fixture, orderId, '10.00');
      await fixture.log.until('the refund email', ({ ofType }) => ofType('RefundEmailSent').length === 1);
      await fixture.stopWorkers();

      const refunds = fixture.smtp.received.filter((mail) => mail.raw.includes('Refund of'));
      expect(refunds).toHaveLength(1);
      const mail = await readMail(refunds[0]?.raw ?? '');
      const { text } = mail;
      expect(mail.subject).toMatch(/^Refund of \$10\.00 for order #[0-9A-F]{8}$/);
      expect(mail.to).toEqual(['grace@example.com']);
      expect(mail.html).toContain('Download your updated receipt (PDF)');
      expect(text).toContain('This license key no longer works:');
      const { state } = await loadStream(fixture.env.eventStore, orderStream(orderId), orderDecider);
      if (state.status === 'absent') throw new Error('no order');
      const refundedUnit = units[0];
      const sealed = state.keys[refundedUnit?.lineId ?? '']?.find((key) => key.keyId === refundedUnit?.keyId);
      const clear = sideEffects.keyVault.open(sealed?.key ?? '');
      expect(text).toContain(`-…-${clear.slice(-4)}`);
      expect(text).not.toContain(clear);
      expect(text).toContain('Order total: $20.00');
      expect(text).toContain('Net paid after refunds: $10.00');
      expect(text).toContain(
        `Your updated receipt (PDF): https://store.test/api/orders/${orderId}/receipt.pdf?token=`,
      );
      expect(text).toContain('Write to help@store.test and quote order');
      const [sent] = fixture.log.ofType('RefundEmailSent');
      expect(sent?.streamId).toBe(`refundemail-${orderId}`);
      expect(sent?.data).toMatchObject({
        orderId,
        recipient: 'grace@example.com',
        messageId: refunds[0]?.messageId,
      });
      expect(sent?.metadata).toMatchObject({
        correlationId: 'refund',
        causationId: fixture.log.ofType('OrderRefundCompleted')[0]?.id,
      });
    });
  });

  /** A delivered order of one unit, refunded by PayPal, and the refund email's job, run by hand in a context. */
  async function refundedOrderJob() {
    const sideEffects = mailing();
    const context = createProcessorContext(sideEffects, fixture.env.eventStore, silentLogger);
    const orderId = await placeOrder(fixture.env.eventStore, [{ productId: randomUUID() }]);
    await fulfilOrder(fixture.env.eventStore, sideEffects.keyVault, orderId);
    const data = await refund(fixture, orderId, '10.00');
    await fixture.log.until('the refund', ({ ofType }) => ofType('OrderRefundCompleted').length === 1);
    const trigger = fixture.log.ofType('OrderRefundCompleted')[0]?.id ?? '';
    return { context, job: sendRefundEmailJob(data, { eventId: trigger, correlationId: 'refund' }) };
  }

  describe('when its job runs again after the email was recorded (a replay after Redis lost its jobs)', () => {
    it('sends nothing', async () => {
      const { context, job } = await refundedOrderJob();
      const processor = sendRefundEmail(context);
      try {
        expect(await runJob(fixture.env, processor, job)).toBe('sent');
        expect(await runJob(fixture.env, processor, job)).toBe('already sent');
      } finally {
        context.mailer.close();
      }
      expect(fixture.smtp.received).toHaveLength(1);
      await fixture.log.until('the record', ({ ofType }) => ofType('RefundEmailSent').length === 1);
      expect(fixture.log.ofType('RefundEmailSent')).toHaveLength(1);
    });
  });

  describe('when the worker is killed after the mail server took the email, or the record cannot be appended', () => {
    it('sends the same message at most again, and records it once', async () => {
      const { context, job } = await refundedOrderJob();
      const send = context.mailer.send.bind(context.mailer);
      let deaths = 1;
      context.mailer.send = async (message) => {
        await send(message);
        if (deaths-- > 0) throw new Error('killed');
      };
      const append = fixture.env.eventStore.append.bind(fixture.env.eventStore);
      let appendsToFail = 1;
      context.eventStore = {
        ...fixture.env.eventStore,
        readStream: fixture.env.eventStore.readStream.bind(fixture.env.eventStore),
        readLastEvent: fixture.env.eventStore.readLastEvent.bind(fixture.env.eventStore),
        append: async (...args) => {
          if (appendsToFail-- > 0) throw new Error('Connection terminated unexpectedly');
          return append(...args);
        },
      };
      const jobId = randomUUID();
      const processor = sendRefundEmail(context);
      try {
        await expect(runJob(fixture.env, processor, job, jobId)).rejects.toThrow('killed');
        await expect(runJob(fixture.env, processor, job, jobId)).rejects.toThrow('Connection terminated');
        expect(await runJob(fixture.env, processor, job, jobId)).toBe('recorded');
      } finally {
        context.mailer.close();
      }
      expect([...deliveriesByMessageId(fixture.smtp.received).values()]).toEqual([2]);
      await fixture.log.until('the record', ({ ofType }) => ofType('RefundEmailSent').length === 1);
      expect(fixture.log.ofType('RefundEmailSent')).toHaveLength(1);
    });
  });
});

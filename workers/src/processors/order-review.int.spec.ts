import { randomUUID } from 'node:crypto';
import { type OrderCommand, orderDecider, orderStream } from '@licensestore/domain';
import { handleCommand } from '@licensestore/domain/commands';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMail } from '../../../test/support/mail.js';
import { openWorkersFixture, testSideEffects, type WorkersFixture } from '../testing/fixtures.js';
import { addKeys, createProduct, placeOrder } from '../testing/store.js';

const admin = {
  actor: { type: 'admin' as const, id: 'reviewer' },
  correlationId: 'review',
  causationId: 'review',
};

describe('A held order', () => {
  let fixture: WorkersFixture;

  beforeEach(async () => {
    fixture = await openWorkersFixture();
    await fixture.smtp.open();
  });
  afterEach(() => fixture.close());

  const startWorkers = async () => {
    const sideEffects = testSideEffects({ mail: { ...testSideEffects().mail, smtpUrl: fixture.smtp.url } });
    await fixture.startWorkers(sideEffects);
    return sideEffects;
  };
  const decide = (command: OrderCommand) =>
    handleCommand(fixture.env.eventStore, orderStream(command.orderId), orderDecider, command, admin);
  const now = () => new Date().toISOString();
  const mailsWith = async (subject: RegExp) =>
    (await Promise.all(fixture.smtp.received.map((mail) => readMail(mail.raw)))).filter((mail) =>
      subject.test(mail.subject ?? ''),
    );
  const ofOrder = (type: string, orderId: string) =>
    fixture.log.ofType(type).filter((event) => (event.data as { orderId?: string }).orderId === orderId);

  it('has its keys set aside, tells the buyer it is being checked, and e-mails the keys once approved', async () => {
    const { keyVault } = await startWorkers();
    const productId = await createProduct(fixture.env.eventStore, 'Office Suite', 'Office');
    await addKeys(fixture.env.eventStore, keyVault, productId, 1);
    const orderId = await placeOrder(fixture.env.eventStore, [{ productId }], { heldFor: ['order-total'] });
    await fixture.log.until(
      'the keys set aside and the buyer told',
      () =>
        ofOrder('OrderFulfilled', orderId).length === 1 &&
        ofOrder('OrderReviewEmailSent', orderId).length === 1,
    );
    const [checking] = await mailsWith(/is being checked$/);
    expect(checking?.text).toContain('This usually takes no longer than 1 hour.');
    expect(checking?.text).not.toMatch(/[0-9A-F]{8}-[0-9A-F]{4}-/);

    await decide({ type: 'ApproveOrder', orderId, automatic: false, now: now() });
    await fixture.log.until('the delivery e-mail', () => ofOrder('DeliveryEmailSent', orderId).length === 1);
    const [approved] = ofOrder('OrderApproved', orderId);
    expect(ofOrder('DeliveryEmailSent', orderId)[0]?.data).toMatchObject({ trigger: approved?.id });
  });

  it('when rejected, gets its keys back to stock and tells the buyer why', async () => {
    const { keyVault } = await startWorkers();
    const productId = await createProduct(fixture.env.eventStore, 'Antivirus', 'Security');
    await addKeys(fixture.env.eventStore, keyVault, productId, 1);
    const orderId = await placeOrder(fixture.env.eventStore, [{ productId }], {
      heldFor: ['blocked-email-domain'],
    });
    await fixture.log.until('the keys set aside', () => ofOrder('OrderFulfilled', orderId).length === 1);
    const refundId = randomUUID();
    await decide({
      type: 'RejectOrder',
      orderId,
      refundId,
      reason: 'The card was reported stolen',
      now: now(),
    });
    // What the api records once PayPal answered the refund the rejection asked for.
    await decide({
      type: 'CompleteOrderRefund',
      orderId,
      captureId: `CAPTURE-${orderId}`,
      refundId,
      paypalRefundId: `REFUND-${refundId}`,
      amount: '10.00',
      now: now(),
    });
    await fixture.log.until(
      'the key back in stock and both review e-mails',
      ({ ofType }) =>
        ofType('LicenceKeyReturned').length === 1 && ofOrder('OrderReviewEmailSent', orderId).length === 2,
    );
    const [rejected] = await mailsWith(/was not approved$/);
    expect(rejected?.text).toContain('The card was reported stolen');
    expect(rejected?.text).toContain('Your payment of $10.00 is being refunded in full');
    expect(ofOrder('DeliveryEmailSent', orderId)).toEqual([]);
  });

  it('nobody decided on by its auto-approval time is approved by the system and delivered', async () => {
    const { keyVault } = await startWorkers();
    const productId = await createProduct(fixture.env.eventStore, 'Backup Tool', 'Utilities');
    await addKeys(fixture.env.eventStore, keyVault, productId, 1);
    const orderId = await placeOrder(fixture.env.eventStore, [{ productId }], {
      heldFor: ['order-total'],
      autoApproveAt: new Date().toISOString(),
    });
    await fixture.log.until('the delivery e-mail', () => ofOrder('DeliveryEmailSent', orderId).length === 1);
    const [approved] = ofOrder('OrderApproved', orderId);
    expect(approved?.data).toMatchObject({ automatic: true });
    expect(approved?.metadata.actor).toEqual({ type: 'system', id: 'workers' });
  });

  it('whose keys ran out meanwhile gets them e-mailed when stock comes, after its approval', async () => {
    const sideEffects = await startWorkers();
    const productId = await createProduct(fixture.env.eventStore, 'Photo Editor', 'Graphics');
    const orderId = await placeOrder(fixture.env.eventStore, [{ productId }], { heldFor: ['first-order'] });
    await fixture.log.until('the buyer told', () => ofOrder('OrderReviewEmailSent', orderId).length === 1);
    await decide({ type: 'ApproveOrder', orderId, automatic: false, now: now() });
    await addKeys(fixture.env.eventStore, sideEffects.keyVault, productId, 1);
    await fixture.log.until('the delivery e-mail', () => ofOrder('DeliveryEmailSent', orderId).length === 1);
    const [fulfilled] = ofOrder('OrderFulfilled', orderId);
    expect(ofOrder('DeliveryEmailSent', orderId)[0]?.data).toMatchObject({ trigger: fulfilled?.id });
  });
});

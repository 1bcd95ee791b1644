import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { orderDecider, orderStream } from '@licensestore/domain';
import { handleCommand } from '@licensestore/domain/commands';
import { recordingLogger, silentLogger } from '@licensestore/platform/logging';
import { type Job, QueueEvents, Worker } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { readMail } from '../../../test/support/mail.js';
import { deliveriesByMessageId } from '../../../test/support/smtp-server.js';
import { openWorkersFixture, runJob, testSideEffects, type WorkersFixture } from '../testing/fixtures.js';
import { addKeys, createProduct, fulfilOrder, placeOrder } from '../testing/store.js';
import { createProcessorContext } from './context.js';
import { MAY_REPEAT_MESSAGE } from './hand-over.js';
import { sendDeliveryEmail, sendDeliveryEmailJob } from './send-delivery-email.js';

const QUEUE = 'send-delivery-email';
const dataOf = (event: { data: unknown }) =>
  event.data as { orderId: string; trigger: string; messageId: string };

describe('Delivery e-mail', () => {
  let fixture: WorkersFixture;
  let env: WorkersFixture['env'];
  let smtp: WorkersFixture['smtp'];
  let log: WorkersFixture['log'];

  beforeEach(async () => {
    fixture = await openWorkersFixture();
    ({ env, smtp, log } = fixture);
  });

  afterEach(() => fixture.close());

  /** Side effects that send through the test's SMTP server, opened. */
  const mailingThroughSmtp = async () => {
    await smtp.open();
    return testSideEffects({ mail: { ...testSideEffects().mail, smtpUrl: smtp.url } });
  };

  describe('when the mail server is down, then refuses, then is back', () => {
    it('retries with backoff and delivers each e-mail exactly once', async () => {
      const sideEffects = testSideEffects({ mail: { ...testSideEffects().mail, smtpUrl: smtp.url } });
      const events = new QueueEvents(QUEUE, { connection: env.queues.connection, prefix: env.queues.prefix });
      let failures = 0;
      const failed = new Promise<void>((resolve) => {
        // A failed attempt that will be retried moves the job to the delayed set.
        events.on('delayed', () => {
          failures += 1;
          if (failures === 3) resolve();
        });
      });
      await events.waitUntilReady();
      await fixture.startWorkers(sideEffects);
      const productId = await createProduct(env.eventStore, 'Windows 11 Pro', 'Windows');
      await addKeys(env.eventStore, sideEffects.keyVault, productId, 3);

      await Promise.all(Array.from({ length: 3 }, () => placeOrder(env.eventStore, [{ productId }])));
      await failed; // nothing listens on the port: each first attempt fails to connect
      await smtp.open();
      smtp.refuse();
      await smtp.until('each message refused once', () => smtp.attempts() >= 3);
      smtp.accept();
      await log.until('3 e-mails recorded', ({ ofType }) => ofType('DeliveryEmailSent').length === 3);
      await fixture.stopWorkers();
      await events.close();

      const deliveries = deliveriesByMessageId(smtp.received);
      expect([...deliveries.values()]).toEqual([1, 1, 1]);
      expect(
        log
          .ofType('DeliveryEmailSent')
          .map((event) => dataOf(event).messageId)
          .sort(),
      ).toEqual([...deliveries.keys()].sort());
      const jobs = await env.jobs.queue(QUEUE).getJobs(['completed']);
      expect(jobs.map((job) => job.attemptsMade)).toEqual([3, 3, 3]);
    });
  });

  describe('without SMTP_URL', () => {
    it('writes each message to DATA_DIR/mail, named after its Message-ID; a resend is a second message', async () => {
      const sideEffects = testSideEffects();
      onTestFinished(() => rm(sideEffects.mail.dataDir, { recursive: true, force: true }));
      await fixture.startWorkers(sideEffects);
      const productId = await createProduct(env.eventStore, 'Norton 360', 'Norton Security', {
        downloadUrl: 'https://www.norton.com/setup',
        installationNotes: 'Sign in at norton.com/setup and enter your product key.',
      });
      const [key] = await addKeys(env.eventStore, sideEffects.keyVault, productId, 1);
      const orderId = await placeOrder(env.eventStore, [{ productId, productName: 'Norton 360' }], {
        customer: { name: 'Grace Hopper', email: 'grace@example.com' },
      });
      await log.until('the delivery e-mail', ({ ofType }) => ofType('DeliveryEmailSent').length === 1);

      const mailDir = join(sideEffects.mail.dataDir, 'mail');
      const fulfilled = log.ofType('OrderFulfilled')[0]?.id;
      expect(await readdir(mailDir)).toEqual([`delivery.${fulfilled}@store.test.eml`]);
      const message = await readFile(join(mailDir, `delivery.${fulfilled}@store.test.eml`), 'utf8');
      expect(message).toContain(`Message-ID: <delivery.${fulfilled}@store.test>`);
      expect(message).toMatch(/^To: Grace Hopper <grace@example\.com>$/m);
      expect(message).toMatch(/^From: LicenseStore <no-reply@store\.test>$/m);
      const { text } = await readMail(message);
      expect(text).toContain(key);
      expect(text).toContain('Download the official installer: https://www.norton.com/setup');
      expect(text).toContain('Sign in at norton.com/setup and enter your product key.');
      expect(message).toContain('text/html');

      const [resend] = (
        await handleCommand(
          env.eventStore,
          orderStream(orderId),
          orderDecider,
          { type: 'RequestDeliveryEmailResend', orderId, now: new Date().toISOString() },
          {
            actor: { type: 'admin', id: 'admin' },
            correlationId: 'resend',
            causationId: 'admin',
          },
        )
      ).events;
      expect(resend?.type).toBe('DeliveryEmailResendRequested');
      await log.until('the second e-mail', ({ ofType }) => ofType('DeliveryEmailSent').length === 2);
      const resent = log.ofType('DeliveryEmailSent')[1];
      expect(dataOf(resent as { data: unknown }).trigger).toBe(
        log.ofType('DeliveryEmailResendRequested')[0]?.id,
      );
      expect(resent?.metadata).toMatchObject({
        actor: { type: 'system', id: 'workers' },
        correlationId: 'resend',
      });
      expect((await readdir(mailDir)).sort()).toHaveLength(2);
    });
  });

  describe('for an order cancelled before its keys arrived', () => {
    it('sends nothing', async () => {
      const sideEffects = await mailingThroughSmtp();
      const context = createProcessorContext(sideEffects, env.eventStore, silentLogger);
      const orderId = await placeOrder(env.eventStore, [{ productId: crypto.randomUUID() }]);
      await handleCommand(
        env.eventStore,
        orderStream(orderId),
        orderDecider,
        { type: 'ChangeOrderStatus', orderId, to: 'cancelled', now: new Date().toISOString() },
        {
          actor: { type: 'admin', id: 'admin' },
          correlationId: 'admin',
          causationId: 'admin',
        },
      );
      const { trigger } = await fulfilOrder(env.eventStore, sideEffects.keyVault, orderId);
      try {
        const job = sendDeliveryEmailJob({ orderId }, { eventId: trigger, correlationId: 'admin' });
        expect(await runJob(env, sendDeliveryEmail(context), job)).toBe('not sending: order cancelled');
      } finally {
        context.mailer.close();
      }
      expect(smtp.received).toEqual([]);
    });
  });

  describe('when recording the e-mail fails after the mail server took it (Postgres restarting)', () => {
    it('records it on the retry without sending it again', async () => {
      const sideEffects = await mailingThroughSmtp();
      const orderId = await placeOrder(env.eventStore, [{ productId: crypto.randomUUID() }]);
      const { trigger } = await fulfilOrder(env.eventStore, sideEffects.keyVault, orderId);
      let appendsToFail = 1;
      const restarting = new Proxy(env.eventStore, {
        get(target, property) {
          if (property === 'append' && appendsToFail > 0) {
            return async () => {
              appendsToFail -= 1;
              throw new Error('Connection terminated unexpectedly');
            };
          }
          const value = Reflect.get(target, property);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const context = createProcessorContext(sideEffects, restarting, silentLogger);
      const job = sendDeliveryEmailJob({ orderId }, { eventId: trigger, correlationId: 'checkout' });
      const jobId = crypto.randomUUID();
      const processor = sendDeliveryEmail(context);
      try {
        await expect(runJob(env, processor, job, jobId)).rejects.toThrow('Connection terminated');
        expect(await runJob(env, processor, job, jobId)).toBe('recorded');
      } finally {
        context.mailer.close();
      }

      expect(smtp.received).toHaveLength(1);
      await log.until('the record', ({ ofType }) => ofType('DeliveryEmailSent').length === 1);
      expect(dataOf(log.ofType('DeliveryEmailSent')[0] as { data: unknown })).toMatchObject({
        trigger,
        messageId: smtp.received[0]?.messageId,
      });
    });
  });

  describe('when the worker died after the mail server took the e-mail, before noting it', () => {
    it('sends the same message again, saying so, and records it once', async () => {
      const sideEffects = await mailingThroughSmtp();
      const logger = recordingLogger();
      const context = createProcessorContext(sideEffects, env.eventStore, logger);
      const orderId = await placeOrder(env.eventStore, [{ productId: crypto.randomUUID() }]);
      const { keys, trigger } = await fulfilOrder(env.eventStore, sideEffects.keyVault, orderId);
      // The first attempt ends the moment the server has the message, as a process killed then would.
      const send = context.mailer.send.bind(context.mailer);
      let deaths = 1;
      context.mailer.send = async (message) => {
        await send(message);
        if (deaths-- > 0) throw new Error('killed');
      };
      const job = sendDeliveryEmailJob({ orderId }, { eventId: trigger, correlationId: 'checkout' });
      const jobId = crypto.randomUUID();
      const processor = sendDeliveryEmail(context);
      try {
        await expect(runJob(env, processor, job, jobId)).rejects.toThrow('killed');
        expect(await runJob(env, processor, job, jobId)).toBe('sent');
      } finally {
        context.mailer.close();
      }

      const [first, second] = smtp.received;
      expect(smtp.received).toHaveLength(2);
      expect(second?.messageId).toBe(first?.messageId);
      const resent = await readMail(second?.raw ?? '');
      for (const key of keys) expect(resent.text).toContain(key);
      expect(logger.entries.filter((entry) => entry.message === MAY_REPEAT_MESSAGE)).toEqual([
        {
          level: 'warn',
          message: MAY_REPEAT_MESSAGE,
          fields: { orderId, messageId: first?.messageId, attempt: 2 },
        },
      ]);
      await log.until('the record', ({ ofType }) => ofType('DeliveryEmailSent').length === 1);
      expect(log.ofType('DeliveryEmailSent')).toHaveLength(1);
    });
  });

  describe('on a worker that stalled past its lock while another took the job over', () => {
    it('sends nothing', async () => {
      const sideEffects = await mailingThroughSmtp();
      const context = createProcessorContext(sideEffects, env.eventStore, silentLogger);
      const orderId = await placeOrder(env.eventStore, [{ productId: crypto.randomUUID() }]);
      const { trigger } = await fulfilOrder(env.eventStore, sideEffects.keyVault, orderId);
      const jobId = crypto.randomUUID();
      await env.jobs.add(
        sendDeliveryEmailJob({ orderId }, { eventId: trigger, correlationId: 'checkout' }),
        jobId,
      );
      const takenOver = new Worker(QUEUE, null, { ...env.queues, autorun: false });
      try {
        const job = await takenOver.getNextJob('token of the worker running it now');
        expect(job?.id).toBe(jobId);
        await expect(
          sendDeliveryEmail(context).handle(job as Job, 'token of the stalled worker'),
        ).rejects.toThrow("no longer this worker's");
      } finally {
        await takenOver.close();
        context.mailer.close();
      }
      expect(smtp.received).toEqual([]);
    });
  });

  describe('when its job runs again after the e-mail was recorded', () => {
    it('sends nothing', async () => {
      const sideEffects = await mailingThroughSmtp();
      const context = createProcessorContext(sideEffects, env.eventStore, silentLogger);
      const orderId = await placeOrder(env.eventStore, [{ productId: crypto.randomUUID(), quantity: 2 }]);
      const { keys, trigger } = await fulfilOrder(env.eventStore, sideEffects.keyVault, orderId);
      const job = sendDeliveryEmailJob({ orderId }, { eventId: trigger, correlationId: 'checkout' });
      const processor = sendDeliveryEmail(context);
      try {
        expect(await runJob(env, processor, job)).toBe('sent');
        expect(await runJob(env, processor, job)).toBe('already sent');
      } finally {
        context.mailer.close();
      }

      expect(smtp.received).toHaveLength(1);
      const { text } = await readMail(smtp.received[0]?.raw ?? '');
      for (const key of keys) expect(text).toContain(key);
      await log.until('the record', ({ ofType }) => ofType('DeliveryEmailSent').length === 1);
      const recorded = log.ofType('DeliveryEmailSent');
      expect(recorded).toHaveLength(1);
      expect(recorded[0]?.metadata).toMatchObject({ correlationId: 'checkout', causationId: trigger });
    });
  });
});

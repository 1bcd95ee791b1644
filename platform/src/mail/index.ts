import { randomUUID } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logging/index.js';

export interface MailSettings {
  /** `smtp://` or `smtps://`; unset writes each message as an `.eml` file into `<dataDir>/mail`. */
  smtpUrl?: string | undefined;
  /** The From header, e.g. `LicenseStore <no-reply@licensestore.local>`. */
  from: string;
  dataDir: string;
}

export interface OutgoingMail {
  to: { name: string; address: string } | string;
  subject: string;
  text: string;
  html: string;
  /** Derived from the event that causes the message, so a re-send carries the same id (see messageIdFor). */
  messageId: string;
  /** What the message is about: on its log line, and its correlation id as the X-Correlation-Id header. */
  context?: MailContext;
}

/**
 * Follows an order (or a product's stock) from its request to its e-mails: a message found in a mailbox leads back
 * to the log lines and events of the same correlation. Never the recipient's address or the message's text.
 */
export interface MailContext {
  correlationId: string;
  orderId?: string;
  productId?: string;
}

export interface Mailer {
  /** Throws when the message was not handed over (SMTP down or refusing): the job is retried. */
  send(mail: OutgoingMail): Promise<void>;
  /** `<kind>.<eventId>@<domain of the From address>`: the same message whatever the number of attempts. */
  messageIdFor(kind: string, eventId: string): string;
  close(): void;
}

const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

const domainOf = (from: string) => /@([^\s@<>]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';

/** A message id as a file name: the same message always lands in the same file. */
const fileNameFor = (messageId: string) => `${messageId.replace(/^<|>$/g, '').replace(/[^\w.@-]/g, '_')}.eml`;

/** The message as nodemailer takes it: the context becomes a header, never part of the body. */
const envelopeOf = ({ context, ...message }: OutgoingMail) =>
  context ? { ...message, headers: { 'X-Correlation-Id': context.correlationId } } : message;

export function createMailer(settings: MailSettings, logger: Logger): Mailer {
  const domain = domainOf(settings.from);
  const messageIdFor = (kind: string, eventId: string) => `<${kind}.${eventId}@${domain}>`;
  const defaults = { from: settings.from };

  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport(
      // BullMQ retries a failed send with backoff; the pool requeueing it on its own could deliver it twice.
      { url: settings.smtpUrl, pool: true, maxRequeues: 0, ...SMTP_TIMEOUTS },
      defaults,
    );
    return {
      messageIdFor,
      async send(mail) {
        const info = await transport.sendMail(envelopeOf(mail));
        logger.info({ ...mail.context, messageId: mail.messageId, response: info.response }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }

  const directory = join(settings.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true }, defaults);
  // Made once per mailer, on the first message (a mkdir per message costs as much as writing it). The messages hold
  // license keys and live sign-in links: the directory (also one made before this rule) and each file are the
  // owner's alone.
  let made: Promise<unknown> | null = null;
  return {
    messageIdFor,
    async send(mail) {
      const info = await transport.sendMail(envelopeOf(mail));
      made ??= mkdir(directory, { recursive: true, mode: 0o700 }).then(() => chmod(directory, 0o700));
      const file = join(directory, fileNameFor(mail.messageId));
      // Written whole, then renamed: a reader never sees half a message, and a re-send replaces the file.
      const partial = `${file}.${randomUUID()}.partial`;
      try {
        await made;
        await writeFile(partial, info.message as Buffer, { mode: 0o600 });
        await rename(partial, file);
      } catch (error) {
        // The directory may be what failed or went away: the retry makes it again.
        made = null;
        throw error;
      }
      logger.info(
        { ...mail.context, messageId: mail.messageId, subject: mail.subject, file },
        'mail written',
      );
    },
    close: () => transport.close(),
  };
}

import { SMTPServer } from 'smtp-server';
import { freePort } from '../../scripts/stack/free-port.js';
import { conditionWaits } from './condition-waits.js';

export interface ReceivedMail {
  messageId: string;
  recipients: string[];
  raw: string;
}

/**
 * A real SMTP server on a fixed port (a free one unless given) that a test can open, close, make refuse messages
 * (451, "try again later") or accept them; it records every message it accepted. It listens once `open` resolves.
 */
export async function startTestSmtpServer(port?: number) {
  port ??= await freePort();
  const received: ReceivedMail[] = [];
  let refusing = false;
  let attempts = 0;
  let server: SMTPServer | null = null;
  const waits = conditionWaits();

  const open = () =>
    new Promise<void>((resolve, reject) => {
      const smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        // Closing waits this long for open (pooled) connections before cutting them.
        closeTimeout: 100,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            attempts += 1;
            if (refusing) {
              callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
            } else {
              const raw = Buffer.concat(chunks).toString('utf8');
              const messageId = /^Message-ID:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? '';
              received.push({
                messageId,
                recipients: session.envelope.rcptTo.map((rcpt) => rcpt.address),
                raw,
              });
              callback();
            }
            waits.changed();
          });
        },
      });
      smtp.on('error', () => {});
      smtp.server.once('error', reject);
      smtp.listen(port, '127.0.0.1', () => resolve());
      server = smtp;
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Messages that reached the end of DATA, accepted or refused. */
    attempts: () => attempts,
    open,
    refuse: () => {
      refusing = true;
    },
    accept: () => {
      refusing = false;
    },
    /** Stops listening: senders get "connection refused". */
    close: () =>
      new Promise<void>((resolve) => {
        const closing = server;
        server = null;
        if (!closing) return resolve();
        closing.close(() => resolve());
      }),
    /** Resolves once `condition` holds; rejects after `timeoutMs`. */
    until: waits.until,
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startTestSmtpServer>>;

/** How many times each Message-ID arrived. */
export const deliveriesByMessageId = (received: readonly ReceivedMail[]) => {
  const counts = new Map<string, number>();
  for (const mail of received) counts.set(mail.messageId, (counts.get(mail.messageId) ?? 0) + 1);
  return counts;
};

import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingLogger, silentLogger } from '../logging/index.js';
import { createMailer, type Mailer } from './index.js';

describe('Mailer without SMTP_URL', () => {
  let dataDir: string;
  let mailer: Mailer;
  const message = (eventId: string) => ({
    to: 'ada@example.com',
    subject: 'Your license keys',
    text: 'keys',
    html: '<p>keys</p>',
    messageId: mailer.messageIdFor('delivery', eventId),
  });

  beforeEach(() => {
    dataDir = join(tmpdir(), `mailer-test-${randomUUID()}`);
    mailer = createMailer({ from: 'LicenseStore <no-reply@store.test>', dataDir }, silentLogger);
  });

  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('writes each message as one .eml file named by its Message-ID, and a re-send replaces it', async () => {
    await mailer.send(message('first'));
    await mailer.send(message('second'));
    await mailer.send(message('first'));
    expect((await readdir(join(dataDir, 'mail'))).sort()).toEqual([
      'delivery.first@store.test.eml',
      'delivery.second@store.test.eml',
    ]);
  });

  it('carries the correlation id of what it is about as a header and on its log line, never the address', async () => {
    const logger = recordingLogger();
    const traced = createMailer({ from: 'LicenseStore <no-reply@store.test>', dataDir }, logger);
    const context = { correlationId: `corr-${randomUUID()}`, orderId: randomUUID() };
    await traced.send({ ...message('traced'), context });

    const raw = await readFile(join(dataDir, 'mail', 'delivery.traced@store.test.eml'), 'utf8');
    // Header names are case-insensitive (nodemailer writes X-Correlation-ID).
    expect(raw).toMatch(new RegExp(`^X-Correlation-Id: ${context.correlationId}\\r?$`, 'im'));
    const [line] = logger.entries;
    expect(line?.fields).toMatchObject(context);
    expect(JSON.stringify(line)).not.toContain('ada@example.com');
  });

  describe('when the mail directory disappears while it runs', () => {
    it('fails that send, and the retry makes the directory again', async () => {
      await mailer.send(message('before'));
      await rm(join(dataDir, 'mail'), { recursive: true });
      await expect(mailer.send(message('after'))).rejects.toThrow(/ENOENT/);
      await mailer.send(message('after'));
      expect(await readdir(join(dataDir, 'mail'))).toEqual(['delivery.after@store.test.eml']);
    });
  });
});

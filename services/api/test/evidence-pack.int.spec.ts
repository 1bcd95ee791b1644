import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { orderCustodyStream, orderNumber, orderStream } from '@licensestore/domain';
import { maskedKey } from '@licensestore/domain/audit';
import { checkExport } from '@licensestore/platform/audit-export';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi } from './support/api.js';
import { type ApiWithReadModel, startApiWithReadModel } from './support/api-with-read-model.js';
import { deliverKeys, readEvents, recordDeliveryEmailSent } from './support/checkout.js';
import { type Purchase, purchase } from './support/purchase.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');

describe('GET /api/orders/:id/evidence', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  let store: ApiWithReadModel;
  let admin: string;
  let auditor: string;
  let order: Purchase;
  let key: string;
  let dir: string;

  const download = (cookie: string, url = store.api.url) =>
    fetch(`${url}/api/orders/${order.orderId}/evidence`, { headers: { cookie } });
  const unpack = async (response: Response) => {
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    return {
      files,
      pdfText: await extractText(files['evidence.pdf'] as Uint8Array, { mergePages: true }).then(({ text }) =>
        text.replace(/\s+/g, ' '),
      ),
      lines: strFromU8(files['events.ndjson'] as Uint8Array)
        .trimEnd()
        .split('\n'),
      manifest: JSON.parse(strFromU8(files['events.ndjson.manifest.json'] as Uint8Array)),
    };
  };
  const checkPackFile = async (name: string, zip: Uint8Array) => {
    const path = join(dir, name);
    await writeFile(path, zip);
    return run(
      process.execPath,
      [
        '--import',
        'tsx',
        'projections/src/audit/check-export-cli.ts',
        path,
        '--public-key',
        join(dir, 'verify.pem'),
      ],
      { cwd: ROOT },
    ).then(
      ({ stdout }) => ({ code: 0, output: stdout }),
      (error: { code: number; stderr: string }) => ({ code: error.code, output: error.stderr }),
    );
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evidence-'));
    await writeFile(join(dir, 'verify.pem'), publicPem);
    store = await startApiWithReadModel({
      env: { AUDIT_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    });
    admin = await store.api.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
    auditor = await store.api.sessionCookie({ kind: 'auditor', subjectId: randomUUID() });
    const productId = await store.productWithKeys(1, { name: 'Windows 11 Pro' });
    order = await purchase(store.api.url, productId, {
      customerName: 'Ada Lovelace',
      customerEmail: 'ada@example.com',
    });
    await deliverKeys(store.eventStore, store.database, order.orderId);
    await recordDeliveryEmailSent(store.eventStore, order.orderId, {
      recipient: 'ada@example.com',
      messageId: '<delivery-7@licensestore.local>',
    });
    // The paying browser's confirmation page shows the key: one recorded reveal.
    const items = await fetch(`${store.api.url}/api/orders/${order.orderId}/items`, {
      headers: { cookie: order.orderCookie },
    });
    key = ((await items.json()) as Array<{ licenseKeys: string[] }>)[0]?.licenseKeys[0] as string;
  });
  afterAll(async () => {
    await store?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['an admin', () => admin],
    ['an auditor', () => auditor],
  ])('gives %s one zip: a PDF a person reads and the signed events, keys masked', async (_who, cookie) => {
    const response = await download(cookie());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const number = orderNumber(order.orderId);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="evidence-${number.slice(1)}.zip"`,
    );
    const pack = await unpack(response);
    expect(Object.keys(pack.files).sort()).toEqual([
      'events.ndjson',
      'events.ndjson.manifest.json',
      'evidence.pdf',
    ]);

    const events = await readEvents(store.eventStore, orderStream(order.orderId));
    const captured = events[0]?.data as { paypalOrderId: string; captureId: string; total: string };
    for (const text of [
      `Evidence pack: order ${number}`,
      `PayPal order id: ${captured.paypalOrderId}`,
      `Capture id: ${captured.captureId}`,
      `Amount: ${captured.total} USD`,
      'Capture status: COMPLETED',
      'Ada Lovelace <ada@example.com>',
      'Windows 11 Pro: 1 x',
      'accepted by the mail server at',
      '(message id <delivery-7@licensestore.local>)',
      'shown on the order confirmation page to the browser that paid',
      'No refund was requested or made.',
      'npm run audit:check-export',
      `audit key ${pack.manifest.keyId}`,
    ]) {
      expect(pack.pdfText).toContain(text);
    }
    expect(pack.pdfText).toContain(maskedKey(key));
    expect(pack.pdfText).not.toContain(key);
    for (const file of Object.values(pack.files))
      expect(Buffer.from(file).toString('latin1')).not.toContain(key);

    expect(pack.manifest).toMatchObject({ format: 'licensestore-evidence-pack/1', orderId: order.orderId });
    const streams = new Set(pack.lines.map((line) => JSON.parse(line).stream));
    expect(streams).toContain(orderStream(order.orderId));
    expect(streams).toContain(orderCustodyStream(order.orderId));
    expect(streams).toContain(`checkout-${captured.paypalOrderId}`);
    expect(pack.lines.map((line) => JSON.parse(line).type)).toContain('LicenceKeysRevealed');
    expect(await checkExport(pack.lines, pack.manifest, publicKey)).toMatchObject({
      ok: true,
      count: pack.lines.length,
      orderId: order.orderId,
    });
  });

  it('a tampered line fails verification, naming the line', async () => {
    const pack = await unpack(await download(admin));
    const at = pack.lines.findIndex((line) => line.includes('"DeliveryEmailSent"'));
    const tampered = [...pack.lines];
    tampered[at] = (tampered[at] as string).replace('delivery-7@', 'delivery-8@');
    expect(await checkExport(tampered, pack.manifest, publicKey)).toEqual({
      ok: false,
      line: at + 1,
      reason: 'its content does not match its hash: the line was altered',
    });

    // The command auditors run, on the whole pack as downloaded and on one with that line changed.
    const zip = (lines: string[]) =>
      zipSync({
        'evidence.pdf': pack.files['evidence.pdf'] as Uint8Array,
        'events.ndjson': strToU8(`${lines.join('\n')}\n`),
        'events.ndjson.manifest.json': pack.files['events.ndjson.manifest.json'] as Uint8Array,
      });
    const good = await checkPackFile('pack.zip', zip(pack.lines));
    expect(good).toEqual({
      code: 0,
      output: expect.stringContaining(
        `OK: evidence pack of order ${order.orderId}: ${pack.lines.length} events`,
      ),
    });
    const bad = await checkPackFile('tampered.zip', zip(tampered));
    expect(bad.code).toBe(1);
    expect(bad.output).toContain(
      `tampered.zip: events.ndjson: line ${at + 1}: its content does not match its hash: the line was altered`,
    );
  });

  it('is for the back office only, and 404 for an order that does not exist', async () => {
    const customer = await store.api.sessionCookie({ kind: 'customer', subjectId: 'ada@example.com' });
    expect((await download('')).status).toBe(401);
    expect((await download(customer)).status).toBe(403);
    expect((await download(order.orderCookie)).status).toBe(401);
    const unknown = await fetch(`${store.api.url}/api/orders/${randomUUID()}/evidence`, {
      headers: { cookie: admin },
    });
    expect(unknown.status).toBe(404);
  });

  it('refuses (503, saying why) where no audit signing key is set: an unsigned pack proves nothing', async () => {
    const unsigned = await startTestApi({ databaseUrl: store.databaseUrl });
    try {
      const cookie = await unsigned.sessionCookie({ kind: 'admin', subjectId: randomUUID() });
      const response = await download(cookie, unsigned.url);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: expect.stringContaining('set AUDIT_SIGNING_KEY') });
    } finally {
      await unsigned.stop();
    }
  });
});

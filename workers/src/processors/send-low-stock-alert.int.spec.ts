import { inventoryDecider, licenseKeysStream } from '@licensestore/domain';
import { loadStream } from '@licensestore/domain/commands';
import { silentLogger } from '@licensestore/platform/logging';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorkersFixture, runJob, testSideEffects, type WorkersFixture } from '../testing/fixtures.js';
import { addKeys, createProduct, placeOrder } from '../testing/store.js';
import { createProcessorContext, type SideEffectSettings } from './context.js';
import { sendLowStockAlert, sendLowStockAlertJob } from './send-low-stock-alert.js';

const ADMIN = 'admin@store.test';

describe('Low-stock alert', () => {
  let fixture: WorkersFixture;
  let env: WorkersFixture['env'];
  let smtp: WorkersFixture['smtp'];
  let log: WorkersFixture['log'];
  let settings: SideEffectSettings;

  /** Runs the alert job of the product's latest LicenceKeyStockLow directly. */
  const runAlert = async (productId: string, overrides: Partial<SideEffectSettings> = {}) => {
    const { causes } = await loadStream(env.eventStore, licenseKeysStream(productId), inventoryDecider);
    const context = createProcessorContext({ ...settings, ...overrides }, env.eventStore, silentLogger);
    try {
      return await runJob(
        env,
        sendLowStockAlert(context),
        sendLowStockAlertJob(
          { productId, available: 2, threshold: 5 },
          { eventId: causes.get('LicenceKeyStockLow')?.eventId as string, correlationId: 'admin' },
        ),
      );
    } finally {
      context.mailer.close();
    }
  };

  beforeEach(async () => {
    fixture = await openWorkersFixture();
    ({ env, smtp, log } = fixture);
    await smtp.open();
    settings = testSideEffects({
      adminEmail: ADMIN,
      lowStockThreshold: 5,
      mail: { ...testSideEffects().mail, smtpUrl: smtp.url },
    });
  });

  afterEach(() => fixture.close());

  it('e-mails ADMIN_EMAIL once when orders take the available keys below the threshold', async () => {
    await fixture.startWorkers(settings);
    const productId = await createProduct(env.eventStore, 'Adobe Acrobat Pro', 'Adobe');
    await addKeys(env.eventStore, settings.keyVault, productId, 6, 5);
    await placeOrder(env.eventStore, [{ productId }]);
    await placeOrder(env.eventStore, [{ productId }]);

    await smtp.until('the alert', () => smtp.received.length > 0);
    await log.until('both orders e-mailed', ({ ofType }) => ofType('DeliveryEmailSent').length === 2);
    const alerts = smtp.received.filter((mail) => mail.recipients.includes(ADMIN));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.raw).toContain('Subject: Low stock: Adobe Acrobat Pro has 4 license keys left');
    expect(alerts[0]?.raw).toContain('https://store.test/admin/license-keys');
    expect(log.ofType('LicenceKeyStockLow')).toHaveLength(1);
  });

  it('sends nothing without ADMIN_EMAIL', async () => {
    const productId = await createProduct(env.eventStore, 'Adobe Acrobat Pro', 'Adobe');
    await addKeys(env.eventStore, settings.keyVault, productId, 2, 5);
    expect(await runAlert(productId, { adminEmail: undefined })).toBe('no ADMIN_EMAIL');
    expect(await runAlert(productId)).toBe('sent');
    expect(smtp.received.map((mail) => mail.recipients)).toEqual([[ADMIN]]);
  });

  it('sends nothing once keys added since have brought the stock back (a replayed job)', async () => {
    const productId = await createProduct(env.eventStore, 'Adobe Acrobat Pro', 'Adobe');
    await addKeys(env.eventStore, settings.keyVault, productId, 2, 5);
    const { causes } = await loadStream(env.eventStore, licenseKeysStream(productId), inventoryDecider);
    const alerted = causes.get('LicenceKeyStockLow')?.eventId;
    await addKeys(env.eventStore, settings.keyVault, productId, 10, 5);

    const { causes: after } = await loadStream(
      env.eventStore,
      licenseKeysStream(productId),
      inventoryDecider,
    );
    expect(after.get('LicenceKeyStockLow')?.eventId).toBe(alerted);
    expect(await runAlert(productId)).toBe('stock recovered since');
    expect(smtp.received).toEqual([]);
  });
});

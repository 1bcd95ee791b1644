import type { EventStore } from '@licensestore/domain/events';
import { loadConfig } from '@licensestore/platform/config';
import type { KeyVault } from '@licensestore/platform/key-vault';
import type { Logger } from '@licensestore/platform/logging';
import { createMailer, type Mailer, type MailSettings } from '@licensestore/platform/mail';
import type { OrderAccess } from '@licensestore/platform/order-access';
import { type StoreIdentity, storeNameFrom } from '../mail/store-identity.js';

/** What the side effects need from the deployment (configuration, secrets); tests pass their own. */
export interface SideEffectSettings {
  /** Opens the sealed keys for the delivery e-mail (LICENSE_KEY_SECRET). */
  keyVault: KeyVault;
  /** Signs the delivery e-mail's link to the order (LICENSE_KEY_SECRET, as the api that checks it). */
  orderAccess: OrderAccess;
  /** LOW_STOCK_THRESHOLD: given to every inventory decision; 0 turns the alert off. */
  lowStockThreshold: number;
  /** ADMIN_EMAIL: where low-stock alerts go; unset sends none. */
  adminEmail?: string | undefined;
  /** PUBLIC_URL: the origin links in e-mails point at. */
  publicUrl: string;
  mail: MailSettings;
  /** Where customer emails send questions (null: nowhere but the store's site); unset: SUPPORT_EMAIL. */
  supportEmail?: string | null;
  /** How long after a capture the workers look for its order, and place it if the api did not (default 30 s). */
  orderRepairDelayMs?: number;
}

/** What every processor gets: the settings, and the connections of the running workers instance. */
export interface ProcessorContext extends Omit<SideEffectSettings, 'mail' | 'supportEmail'> {
  /** The store customer emails come from: the From header's name, its logo, its support address. */
  store: StoreIdentity;
  eventStore: EventStore;
  mailer: Mailer;
  logger: Logger;
}

/** The context of one workers instance; `publicUrl` loses any trailing slash, as links are `${publicUrl}/path`. */
export function createProcessorContext(
  settings: SideEffectSettings,
  eventStore: EventStore,
  logger: Logger,
): ProcessorContext {
  const { mail, supportEmail, ...rest } = settings;
  const publicUrl = rest.publicUrl.replace(/\/+$/, '');
  return {
    ...rest,
    publicUrl,
    store: {
      name: storeNameFrom(mail.from),
      publicUrl,
      supportEmail: supportEmail === undefined ? loadConfig().SUPPORT_EMAIL : supportEmail,
    },
    eventStore,
    mailer: createMailer(mail, logger),
    logger,
  };
}

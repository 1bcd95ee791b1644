import type { KeyVault } from '@licensestore/shared/key-vault';
import type { Logger } from '@licensestore/shared/logging';

/** Opens a sealed key for an answer; null for none. */
export type RevealKey = (sealed: string, about: Record<string, unknown>) => string | null;

/**
 * Keys are opened only here, at the HTTP edge, for admins and the holder of the order. A key that does not open
 * (sealed under another secret, damaged) is logged and shown as missing: one bad row must not fail the page.
 */
export function keyRevealer(vault: KeyVault, logger: Logger): RevealKey {
  return (sealed, about) => {
    try {
      return vault.open(sealed);
    } catch (error) {
      logger.error({ ...about, err: error, alert: 'licence-key-unreadable' }, 'a licence key did not open');
      return null;
    }
  };
}

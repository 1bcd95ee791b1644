import { maskedKey } from '@licensestore/domain/audit';
import type { KeyVault } from '@licensestore/platform/key-vault';
import type { Logger } from '@licensestore/platform/logging';
import type { Request } from 'express';

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
      logger.error({ ...about, err: error, alert: 'license-key-unreadable' }, 'a license key did not open');
      return null;
    }
  };
}

/**
 * Opening a key counts as an admin's privilege, like a write: a key in clear is stock anyone can redeem, and an
 * auditor checks that keys exist and went to the right order, for which the last characters are enough (the same
 * mask as the order timeline). So every key an auditor's request gets back is masked.
 */
export function revealFor(req: Request, reveal: RevealKey): RevealKey {
  return req.session?.kind === 'auditor' ? masked(reveal) : reveal;
}

/** The same keys, each shown as its last characters only. */
export function masked(reveal: RevealKey): RevealKey {
  return (sealed, about) => {
    const key = reveal(sealed, about);
    return key === null ? null : maskedKey(key);
  };
}

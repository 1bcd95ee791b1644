import { sealedKeySchema } from '../license-keys/events.js';

const HIDDEN_SLOT = 'X';
/** A key with no hyphen to show its format by: the default format's first group. */
const DEFAULT_FIRST_GROUP = 5;

/**
 * What is left of a key where people read history: its first group as Xs, so the mask has the shape of its
 * product's format (`XXXX-…-JK12` for XXXX-XXXX-XXXX), and its last characters, enough to match it against an email.
 */
export function maskedKey(key: string): string {
  const firstHyphen = key.indexOf('-');
  const firstGroup = firstHyphen > 0 ? firstHyphen : DEFAULT_FIRST_GROUP;
  return `${HIDDEN_SLOT.repeat(firstGroup)}-…-${key.slice(-4)}`;
}
/** A sealed key that does not open (another secret, damaged): its existence is history, its text is gone. */
export const UNREADABLE_KEY = 'XXXXX-…-????';
/** The mask of a key as it opened: its last characters, or the unreadable mark when it did not open. */
export const maskOpened = (key: string | null) => (key === null ? UNREADABLE_KEY : maskedKey(key));
/** A key masked where the key secret is not at hand (the projections role): nothing of its text at all. */
export const WITHHELD_KEY = 'XXXXX-…';

/**
 * Every sealed key anywhere in `value` replaced by `mask(sealed)`. Matching on the sealed form rather than on
 * field names keeps history safe for event types added later: no sealed or clear key ever gets past here.
 */
export function maskKeys(value: unknown, mask: (sealed: string) => string): unknown {
  if (typeof value === 'string') return sealedKeySchema.safeParse(value).success ? mask(value) : value;
  if (Array.isArray(value)) return value.map((item) => maskKeys(item, mask));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, maskKeys(item, mask)]));
  }
  return value;
}

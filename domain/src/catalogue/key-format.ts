// A product's license-key format, shared by the API, the projections and the browser (no imports).
//
// The pattern language is deliberately tiny, never a regular expression an admin types (a crafted one could take
// the server minutes to match): `X` stands for one upper-case letter A-Z or digit 0-9, `-` for itself. A format is
// groups of X separated by single hyphens, such as XXXX-XXXX-XXXX. Matching compares a key with its format
// character by character, so it takes time in proportion to the key's length and nothing more.

/** Five groups of five, as most vendors print their keys; a product with no format of its own uses it. */
export const DEFAULT_KEY_FORMAT = 'XXXXX-XXXXX-XXXXX-XXXXX-XXXXX';
export const KEY_FORMAT_MAX_LENGTH = 100;

/** What a format says in the product form's help text. */
export const KEY_FORMAT_HELP = `Groups of X separated by hyphens, e.g. XXXX-XXXX-XXXX, where each X is an upper-case letter or a digit. Keys added or imported must match it. Leave it empty for ${DEFAULT_KEY_FORMAT}.`;

const GROUP_SLOT = 'X';
const SEPARATOR = '-';

/** Why `format` cannot be a product's key format, or null when it can. */
export function keyFormatProblem(format: string): string | null {
  if (format.length > KEY_FORMAT_MAX_LENGTH) return `must be at most ${KEY_FORMAT_MAX_LENGTH} characters`;
  const groups = format.split(SEPARATOR);
  if (groups.some((group) => group.length === 0 || [...group].some((char) => char !== GROUP_SLOT))) {
    return 'must be groups of X separated by single hyphens, like XXXX-XXXX-XXXX';
  }
  return null;
}

const isSlotChar = (char: string) => (char >= 'A' && char <= 'Z') || (char >= '0' && char <= '9');

/** Whether `key` is written in `format` (a format keyFormatProblem accepts): same length, slot for slot. */
export function matchesKeyFormat(key: string, format: string): boolean {
  if (key.length !== format.length) return false;
  for (let i = 0; i < format.length; i++) {
    const char = key[i] as string;
    if (format[i] === GROUP_SLOT ? !isSlotChar(char) : char !== format[i]) return false;
  }
  return true;
}

/** The format a product's keys must have: its own, or the default when it has none. */
export const keyFormatOf = (product: { keyFormat?: string | null }): string =>
  product.keyFormat ?? DEFAULT_KEY_FORMAT;

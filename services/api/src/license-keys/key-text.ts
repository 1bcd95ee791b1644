/** How license keys typed or uploaded by an admin are read: one rule for the single form and the bulk import. */

import type { RefusedLine } from '@licensestore/contract/license-keys';

export const MAX_KEY_LENGTH = 200;
export const MAX_IMPORT_KEYS = 5000;

export const KEY_TOO_LONG = `The license key is longer than ${MAX_KEY_LENGTH} characters`;
export const KEY_NOT_PRINTABLE =
  'The license key contains characters that are not printable (tabs, line breaks or control characters)';
export const KEY_ALREADY_STORED = 'Already in stock';
export const sameKeyAs = (line: number) => `The same license key as line ${line}`;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * What an import did, in one sentence: the keys added, then the keys skipped because the stock already holds them
 * or the text repeats them ("2 license keys added; 6 already in stock, skipped").
 */
export function importSummary(counts: { added: number; alreadyInStock: number; repeated: number }): string {
  const skipped = [
    counts.alreadyInStock > 0 && `${counts.alreadyInStock} already in stock, skipped`,
    counts.repeated > 0 && `${plural(counts.repeated, 'repeated line', 'repeated lines')}, skipped`,
  ].filter((part) => part !== false);
  const added =
    counts.added === 0
      ? 'No new license key added'
      : `${plural(counts.added, 'license key', 'license keys')} added`;
  return [added, ...skipped].join('; ');
}
export const notInFormat = (format: string) => `Not a key in this product's format ${format}`;

/** Line numbers named in a sentence: at most ten, then how many more. */
const SHOWN_LINES = 10;

/**
 * Why an import stored nothing: every line must be a key in the product's format, so one line that is not refuses
 * the whole file (the admin fixes it and sends it again, never wondering which keys went in).
 */
export function importRefusedSentence(lines: readonly number[], format: string): string {
  const shown = lines.slice(0, SHOWN_LINES);
  const more = lines.length - shown.length;
  const named =
    more > 0
      ? `${shown.join(', ')} and ${more} more`
      : shown.length === 1
        ? String(shown[0])
        : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  return lines.length === 1
    ? `Nothing was imported: line ${named} is not a key in this product's format ${format}`
    : `Nothing was imported: lines ${named} are not keys in this product's format ${format}`;
}

// Letters, marks, digits, punctuation, symbols and spaces: what can be read off a screen or a box.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]+$/u;

/** The key as it is stored (trimmed), or why it cannot be; null for a blank key. */
export function readLicenseKey(raw: string): { key: string } | { reason: string } | null {
  const key = raw.trim();
  if (key === '') return null;
  if (key.length > MAX_KEY_LENGTH) return { reason: KEY_TOO_LONG };
  if (!PRINTABLE.test(key)) return { reason: KEY_NOT_PRINTABLE };
  return { key };
}

/** Enough of a key to find it in the file again, not enough to use it. */
export function maskLicenseKey(key: string): string {
  const shown = 5;
  if (key.length <= shown) return '*'.repeat(key.length);
  return `${'*'.repeat(Math.min(key.length - shown, 20))}${key.slice(-shown)}`;
}

export interface ImportLine {
  /** 1-based line number in the text as sent. */
  line: number;
  key: string;
}

export interface ParsedImport {
  keys: ImportLine[];
  refused: RefusedLine[];
}

/** Header cells a spreadsheet export puts above a column of keys. */
const HEADER_NAMES = new Set([
  'key',
  'keys',
  'licencekey',
  'licensekey',
  'productkey',
  'serial',
  'serialkey',
  'serialnumber',
]);

/** The first cell of a CSV record (RFC 4180 quoting); a line without a comma or quote is the cell itself. */
function firstCell(line: string): string {
  const start = line.trimStart();
  if (!start.startsWith('"')) {
    const comma = line.indexOf(',');
    return comma === -1 ? line : line.slice(0, comma);
  }
  let cell = '';
  for (let i = 1; i < start.length; i++) {
    const char = start[i];
    if (char !== '"') cell += char;
    else if (start[i + 1] === '"') {
      cell += '"';
      i++;
    } else break;
  }
  return cell;
}

const isHeader = (cell: string) => HEADER_NAMES.has(cell.toLowerCase().replace(/[\s_-]/g, ''));

/**
 * Pasted text, a TXT file or a CSV file: one key per line, a CSV's first column (license keys hold no commas;
 * quote one that does), an optional header line naming the key column, blank lines skipped. Keys that cannot be
 * stored are refused line by line; duplicates are the caller's business (they need the fingerprints).
 */
export function parseKeyImport(text: string): ParsedImport {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const parsed: ParsedImport = { keys: [], refused: [] };
  let first = true;
  lines.forEach((content, index) => {
    const cell = firstCell(content);
    const read = readLicenseKey(cell);
    if (read === null) return;
    const wasFirst = first;
    first = false;
    if (wasFirst && isHeader(cell)) return;
    const line = index + 1;
    if ('reason' in read)
      parsed.refused.push({ line, key: maskLicenseKey(cell.trim()), reason: read.reason });
    else parsed.keys.push({ line, key: read.key });
  });
  return parsed;
}

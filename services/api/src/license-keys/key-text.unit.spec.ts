import { describe, expect, it } from 'vitest';
import {
  importRefusedSentence,
  importSummary,
  KEY_NOT_PRINTABLE,
  KEY_TOO_LONG,
  maskLicenseKey,
  parseKeyImport,
  readLicenseKey,
} from './key-text.js';

describe('License key text', () => {
  describe('importSummary', () => {
    it('says how many keys were added and how many were skipped, and why', () => {
      expect(importSummary({ added: 4, alreadyInStock: 6, repeated: 0 })).toBe(
        '4 license keys added; 6 already in stock, skipped',
      );
      expect(importSummary({ added: 0, alreadyInStock: 6, repeated: 1 })).toBe(
        'No new license key added; 6 already in stock, skipped; 1 repeated line, skipped',
      );
      expect(importSummary({ added: 1, alreadyInStock: 0, repeated: 2 })).toBe(
        '1 license key added; 2 repeated lines, skipped',
      );
    });
  });

  describe('readLicenseKey', () => {
    it('trims the key and keeps inner spaces, punctuation and non-Latin letters', () => {
      expect(readLicenseKey('  ABCDE-12345-FGHIJ  ')).toEqual({ key: 'ABCDE-12345-FGHIJ' });
      expect(readLicenseKey('AB CD/éñ#1')).toEqual({ key: 'AB CD/éñ#1' });
    });

    it('reads a blank key as no key', () => {
      expect(readLicenseKey(' \t ')).toBeNull();
    });

    it('refuses a key longer than 200 characters, or one with tabs, line breaks or control characters', () => {
      expect(readLicenseKey('x'.repeat(200))).toEqual({ key: 'x'.repeat(200) });
      expect(readLicenseKey('x'.repeat(201))).toEqual({ reason: KEY_TOO_LONG });
      for (const key of ['AB\tCD', 'AB\nCD', 'AB\u0000CD', 'AB\u200bCD'])
        expect(readLicenseKey(key)).toEqual({ reason: KEY_NOT_PRINTABLE });
    });
  });

  describe('maskLicenseKey', () => {
    it('shows only the last five characters, with at most twenty stars before them', () => {
      expect(maskLicenseKey('ABCDE-12345')).toBe('******12345');
      expect(maskLicenseKey(`${'x'.repeat(100)}LAST5`)).toBe(`${'*'.repeat(20)}LAST5`);
    });

    it('hides a key of five characters or fewer entirely', () => {
      expect(maskLicenseKey('ABC')).toBe('***');
    });
  });

  describe('parseKeyImport', () => {
    it('reads one key per line, skipping blank lines, with the line numbers as sent', () => {
      expect(parseKeyImport('AAAAA-1\r\n\r\n  BBBBB-2  \n\n\rCCCCC-3\n')).toEqual({
        keys: [
          { line: 1, key: 'AAAAA-1' },
          { line: 3, key: 'BBBBB-2' },
          { line: 6, key: 'CCCCC-3' },
        ],
        refused: [],
      });
    });

    it('takes the first column of a CSV file and skips a header naming the key column', () => {
      const csv = '\uFEFF"License Key",Product,Notes\nAAAAA-1,Office,new\n"BB,BB-2",Office\n\n"CC""C-3"\n';
      expect(parseKeyImport(csv)).toEqual({
        keys: [
          { line: 2, key: 'AAAAA-1' },
          { line: 3, key: 'BB,BB-2' },
          { line: 5, key: 'CC"C-3' },
        ],
        refused: [],
      });
    });

    it.each(['key', 'Keys', 'licence_key', 'Product Key', 'Serial Number'])(
      'skips the header %s only on the first non-blank line',
      (header) => {
        expect(parseKeyImport(`\n${header}\nAAAAA-1\n${header}`).keys).toEqual([
          { line: 3, key: 'AAAAA-1' },
          { line: 4, key: header },
        ]);
      },
    );

    it('takes a first line that only looks like a header for a key', () => {
      expect(parseKeyImport('KEY-1\nKEY-2').keys).toEqual([
        { line: 1, key: 'KEY-1' },
        { line: 2, key: 'KEY-2' },
      ]);
    });

    it('refuses keys it cannot store, line by line, masked', () => {
      expect(parseKeyImport(`AAAAA-1\n${'x'.repeat(196)}TOOLONG\nBAD\u0007KEY-2`)).toEqual({
        keys: [{ line: 1, key: 'AAAAA-1' }],
        refused: [
          { line: 2, key: `${'*'.repeat(20)}OLONG`, reason: KEY_TOO_LONG },
          { line: 3, key: '****KEY-2', reason: KEY_NOT_PRINTABLE },
        ],
      });
    });

    it('finds nothing in blank text', () => {
      expect(parseKeyImport(' \n\n')).toEqual({ keys: [], refused: [] });
    });
  });

  describe('importRefusedSentence', () => {
    const format = 'XXXX-XXXX';

    it('names one line, a few lines, or the first ten and how many more', () => {
      expect(importRefusedSentence([3], format)).toBe(
        "Nothing was imported: line 3 is not a key in this product's format XXXX-XXXX",
      );
      expect(importRefusedSentence([3, 7, 9], format)).toBe(
        "Nothing was imported: lines 3, 7 and 9 are not keys in this product's format XXXX-XXXX",
      );
      const many = Array.from({ length: 13 }, (_, index) => index + 1);
      expect(importRefusedSentence(many, format)).toBe(
        "Nothing was imported: lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 3 more are not keys in this product's format XXXX-XXXX",
      );
    });
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_FORMAT, keyFormatProblem, matchesKeyFormat } from './key-format.js';

describe('Key format', () => {
  it('matches a key slot for slot: X an upper-case letter or digit, a hyphen itself', () => {
    expect(matchesKeyFormat('AB12C-DE34F-GH56I-JK78L-MN90P', DEFAULT_KEY_FORMAT)).toBe(true);
    expect(matchesKeyFormat('AB12-CD34', 'XXXX-XXXX')).toBe(true);
  });

  it('refuses a key of another length, with lower-case letters, other characters or misplaced hyphens', () => {
    for (const key of [
      'short',
      'AB12C-DE34F-GH56I-JK78L-MN90',
      'ab12c-de34f-gh56i-jk78l-mn90p',
      'AB12C_DE34F_GH56I_JK78L_MN90P',
      'AB12CD-E34F-GH56I-JK78L-MN90P',
      'ÄB12C-DE34F-GH56I-JK78L-MN90P',
    ]) {
      expect(matchesKeyFormat(key, DEFAULT_KEY_FORMAT)).toBe(false);
    }
  });

  it('takes groups of X separated by single hyphens, at most 100 characters', () => {
    expect(keyFormatProblem('X')).toBeNull();
    expect(keyFormatProblem('XXXX-XXXX-XXXX')).toBeNull();
    expect(keyFormatProblem('X'.repeat(100))).toBeNull();
    expect(keyFormatProblem('X'.repeat(101))).toBe('must be at most 100 characters');
    for (const format of ['', 'XX--XX', '-XX', 'XX-', 'XXAX', '.*', '(X+)+']) {
      expect(keyFormatProblem(format)).toBe(
        'must be groups of X separated by single hyphens, like XXXX-XXXX-XXXX',
      );
    }
  });
});

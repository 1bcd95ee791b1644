import { describe, expect, it } from 'vitest';
import { maskedKey } from './mask.js';

describe('maskedKey', () => {
  it('shows the first group as Xs in the length of the key format, then the last four characters', () => {
    expect(maskedKey('AB12-CD34-JK12')).toBe('XXXX-…-JK12');
    expect(maskedKey('ABCDE-FGHJK-LMNPQ-RSTUV-WJK12')).toBe('XXXXX-…-JK12');
    expect(maskedKey('ABC-DEFGHJK12')).toBe('XXX-…-JK12');
  });

  it('takes the default format’s five Xs for a key with no hyphen to follow', () => {
    expect(maskedKey('ABCDEFGHJK12')).toBe('XXXXX-…-JK12');
  });
});

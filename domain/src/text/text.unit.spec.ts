import { describe, expect, it } from 'vitest';
import { payerAsBuyer } from '../orders/customer.js';
import { makeStorable, storableText, unstorableCharacter } from './index.js';

describe('Storable text', () => {
  describe('a one-line field', () => {
    const name = storableText({ max: 10, label: 'Name' });
    const messageFor = (input: unknown) => name.safeParse(input).error?.issues[0]?.message;

    it.each([
      ['A\u0000B', 'U+0000'],
      ['A\tB', 'U+0009'],
      ['A\nB', 'U+000A'],
      ['A\u007fB', 'U+007F'],
      ['A\u0085B', 'U+0085'],
      ['A\ud800B', 'U+D800'],
      ['A\udfffB', 'U+DFFF'],
      ['A\u2028B', 'U+2028'],
      ['A\u2029B', 'U+2029'],
      ['A\u202aB', 'U+202A'],
      ['A\u202eB', 'U+202E'],
      ['A\u2066B', 'U+2066'],
      ['A\u2069B', 'U+2069'],
    ])('refuses %j, naming %s', (input, character) => {
      expect(messageFor(input)).toBe(`Name contains a character that cannot be stored (${character})`);
    });

    it('keeps NFC-normalised, trimmed text, surrogate pairs included', () => {
      expect(name.parse('  Cafe\u0301 ')).toBe('Caf\u00e9');
      expect(name.parse('😀 Zoë')).toBe('😀 Zoë');
    });

    it('counts the length after normalisation, and says so', () => {
      expect(name.parse(`${'e\u0301'.repeat(10)}`)).toBe('\u00e9'.repeat(10));
      expect(messageFor('x'.repeat(11))).toBe('Name must be at most 10 characters');
      expect(messageFor('   ')).toBe('Name is required');
    });
  });

  describe('a field of several lines', () => {
    const description = storableText({ max: 100, multiline: true });

    it('keeps newlines and tabs, one kind of line end', () => {
      expect(description.parse('one\r\ntwo\rthree\tfour\n')).toBe('one\ntwo\nthree\tfour');
    });

    it('refuses the other controls, without a label', () => {
      expect(description.safeParse('one\u000btwo').error?.issues[0]?.message).toBe(
        'contains a character that cannot be stored (U+000B)',
      );
    });
  });

  it('finds nothing to refuse in ordinary text', () => {
    expect(unstorableCharacter('Grüße, 東京 — <b>"quoted"</b>')).toBeNull();
  });

  describe('text from elsewhere', () => {
    it('is cleaned, normalised and cut without splitting a character', () => {
      expect(makeStorable(' Ada\u0000Love\ud800lace\u202e ', { max: 50 })).toBe('Ada Love lace');
      expect(makeStorable('abcdefg😀', { max: 8 })).toBe('abcdefg');
    });

    it("makes PayPal's payer a buyer the store can keep", () => {
      expect(payerAsBuyer({ name: 'Ada\u0000 Lovelace', email: 'ada@example.com' })).toEqual({
        name: 'Ada  Lovelace',
        email: 'ada@example.com',
      });
      expect(payerAsBuyer({ name: '\u202e', email: 'not an address\u0000' })).toEqual({
        name: 'PayPal customer',
        email: 'unknown@paypal.invalid',
      });
    });
  });
});

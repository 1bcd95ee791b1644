import { describe, expect, it } from 'vitest';
import { brandOf, checkCard, luhnValid } from '../src/cards.js';
import { PaypalError } from '../src/errors.js';
import { accountId, isAccountId, MERCHANT_ID } from '../src/ids.js';
import { fromMinor, normalise, toMinor } from '../src/money.js';
import { crc32, signTransmission, verifyTransmission } from '../src/webhooks.js';

describe('money', () => {
  it.each([
    [{ currency_code: 'USD', value: '10' }, 1000],
    [{ currency_code: 'USD', value: '10.5' }, 1050],
    [{ currency_code: 'USD', value: '.99' }, 99],
    [{ currency_code: 'USD', value: '-1.25' }, -125],
    [{ currency_code: 'JPY', value: '1500' }, 1500],
  ])('reads %o as %i minor units', (money, minor) => {
    expect(toMinor(money)).toBe(minor);
  });

  it('writes amounts with the currency’s decimals, as PayPal echoes them', () => {
    expect(fromMinor(2999, 'USD')).toEqual({ currency_code: 'USD', value: '29.99' });
    expect(fromMinor(5, 'USD').value).toBe('0.05');
    expect(fromMinor(1500, 'JPY').value).toBe('1500');
    expect(normalise({ currency_code: 'USD', value: '10' }).value).toBe('10.00');
  });
});

describe('cards', () => {
  it('checks Luhn and brands', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(brandOf('378282246310005')).toBe('AMEX');
    expect(brandOf('5555555555554444')).toBe('MASTERCARD');
    expect(brandOf('2221000000000009')).toBe('MASTERCARD');
    expect(brandOf('9999999999999995')).toBeNull();
  });

  describe('when the card expires', () => {
    const now = new Date('2030-06-15T12:00:00Z');
    const card = (expiry: string) => ({ number: '4111111111111111', expiry, security_code: '123' });

    it('accepts it through the last day of its expiry month', () => {
      expect(checkCard(card('2030-06'), now).outcome).toBe('complete');
    });

    it('refuses it from the month after with CARD_EXPIRED', () => {
      const error = (() => {
        try {
          checkCard(card('2030-05'), now);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(PaypalError);
      expect((error as PaypalError).details[0]?.issue).toBe('CARD_EXPIRED');
    });
  });
});

describe('webhook signatures', () => {
  it('uses the standard CRC-32 (IEEE)', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
  });

  it('verifies only what it signed, for the webhook id it signed for', () => {
    const secret = Buffer.alloc(32, 7);
    const event = { id: 'WH-1', resource: { amount: { currency_code: 'USD', value: '1.00' } } };
    const input = {
      auth_algo: 'SHA256withRSA',
      cert_url: 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-sandboxemu',
      transmission_id: 'a',
      transmission_time: '2030-01-01T00:00:00Z',
      webhook_id: 'HOOK',
      webhook_event: event,
    };
    const signature = signTransmission(secret, {
      transmissionId: 'a',
      transmissionTime: input.transmission_time,
      webhookId: 'HOOK',
      body: JSON.stringify(event),
    });
    expect(verifyTransmission(secret, 'HOOK', { ...input, transmission_sig: signature })).toBe(true);
    expect(
      verifyTransmission(secret, 'OTHER', { ...input, webhook_id: 'OTHER', transmission_sig: signature }),
    ).toBe(false);
    expect(verifyTransmission(Buffer.alloc(32, 8), 'HOOK', { ...input, transmission_sig: signature })).toBe(
      false,
    );
  });
});

describe('PayPal account ids', () => {
  it('are 13 of [2-9A-HJ-NP-Z] for the merchant and every payer', () => {
    expect(isAccountId(MERCHANT_ID)).toBe(true);
    const ids = Array.from({ length: 500 }, accountId);
    expect(ids.filter((id) => !isAccountId(id))).toEqual([]);
    expect(new Set(ids.join(''))).toEqual(new Set('23456789ABCDEFGHJKLMNPQRSTUVWXYZ'));
  });

  it('refuses the characters PayPal leaves out and other lengths', () => {
    expect(['SBEMULATORMERCH', 'SBEMULAT0RMRC', 'SBEMULATIRMRC', 'SBEMULATRMRC'].map(isAccountId)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

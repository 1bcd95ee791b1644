import { describe, expect, it } from 'vitest';
import { paymentOffered, validateCustomer } from './customer-validation';

describe('the customer form', () => {
  it.each(['pat@', 'pat@example', 'pat @example.com', '@example.com'])(
    'marks %s invalid and keeps payment locked: one rule for both',
    (customerEmail) => {
      const customer = { customerName: 'Pat', customerEmail };
      expect(validateCustomer(customer)).toStrictEqual({
        customerEmail: 'Please enter a valid email address',
      });
      expect(paymentOffered(customer)).toBe(false);
    },
  );

  it('offers payment once name and address are valid, and only then', () => {
    expect(paymentOffered({ customerName: ' Pat ', customerEmail: ' pat@example.com ' })).toBe(true);
    expect(validateCustomer({ customerName: ' P ', customerEmail: 'pat@example.com' })).toStrictEqual({
      customerName: 'Name must be at least 2 characters',
    });
    expect(paymentOffered({ customerName: ' P ', customerEmail: 'pat@example.com' })).toBe(false);
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createOrderAccess } from './index.js';

const secret = () => randomBytes(32).toString('base64url');

describe('Order access tokens', () => {
  const access = createOrderAccess(secret());
  const orderId = '3f1c2a4e-9d2b-4c1e-8f7a-0b6d5e4c3a21';

  it('verifies the token made for the same purpose and subject, every time the same', () => {
    const token = access.token('order-link', orderId);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(access.token('order-link', orderId)).toBe(token);
    expect(access.verify('order-link', orderId, token)).toBe(true);
  });

  it('refuses a token of another purpose, another subject or another secret', () => {
    const token = access.token('order-link', orderId);
    expect(access.verify('order-cookie', orderId, token)).toBe(false);
    expect(access.verify('order-link', '9f1c2a4e-9d2b-4c1e-8f7a-0b6d5e4c3a21', token)).toBe(false);
    expect(createOrderAccess(secret()).verify('order-link', orderId, token)).toBe(false);
  });

  it("gives the receipt's link a token that opens nothing else, and takes no other purpose's token", () => {
    const token = access.token('receipt', orderId);
    expect(access.verify('receipt', orderId, token)).toBe(true);
    for (const purpose of ['order-cookie', 'order-link', 'checkout'] as const) {
      expect(access.verify(purpose, orderId, token)).toBe(false);
      expect(access.verify('receipt', orderId, access.token(purpose, orderId))).toBe(false);
    }
  });

  it('refuses anything that is not a token', () => {
    for (const token of [undefined, null, 42, '', 'x'.repeat(43), `${access.token('checkout', 'A1')}=`]) {
      expect(access.verify('checkout', 'A1', token)).toBe(false);
    }
  });
});

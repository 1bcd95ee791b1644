import { describe, expect, it } from 'vitest';
import { isLoopbackAddress } from './access.js';

describe('Who counts as a caller on this machine for /metrics', () => {
  it.each(['127.0.0.1', '127.12.0.9', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.2'])(
    '%s does',
    (address) => {
      expect(isLoopbackAddress(address)).toBe(true);
    },
  );

  it.each([
    '10.0.0.1',
    '192.168.1.20',
    '128.0.0.1',
    '::ffff:10.0.0.1',
    '2001:db8::1',
    '::2',
    '::',
    '0.0.0.0',
    '127.0.0.1.evil.example',
    'localhost',
    '',
    undefined,
  ])('%s does not', (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { sniffImageType } from './image-types.js';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );

describe('sniffImageType', () => {
  it.each([
    ['image/png', bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13])],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF\0\0\0\0')],
    ['image/gif', bytes('GIF89a', [1, 0, 1, 0, 0, 0])],
    ['image/gif', bytes('GIF87a', [1, 0, 1, 0, 0, 0])],
    ['image/webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBP')],
  ])('reads %s from its leading bytes', (type, head) => {
    expect(sniffImageType(head)).toBe(type);
  });

  it.each([
    ['an SVG', bytes('<svg xmlns="http')],
    ['an SVG behind an XML declaration', bytes('<?xml version="1')],
    ['text', bytes('hello, world')],
    ['a RIFF that is not WebP (WAV)', bytes('RIFF', [0x24, 0, 0, 0], 'WAVE')],
    ['a PNG signature cut short', bytes([0x89], 'PNG')],
    ['nothing', bytes()],
  ])('refuses %s', (_name, head) => {
    expect(sniffImageType(head)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { timeOrderedId, uuidText } from './index.js';

describe('timeOrderedId', () => {
  it('is a version 7 UUID with the RFC variant, which the event schemas accept', () => {
    const id = timeOrderedId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().parse(id)).toBe(id);
  });

  it('begins with the time it was made, in milliseconds', () => {
    const at = Date.parse('2026-12-02T10:30:00.123Z');
    const id = timeOrderedId(at);
    expect(Number.parseInt(id.replace('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts in the order of the times it was made (its text, as Postgres compares uuids: byte by byte)', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const ids = Array.from({ length: 1000 }, (_, i) => timeOrderedId(start + i * 1_000));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differs every time, within one millisecond and across fills of its random source', () => {
    const at = Date.now();
    const ids = Array.from({ length: 2000 }, () => timeOrderedId(at));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(14))).size).toBe(ids.length);
  });

  it('stamps a version and the variant into any 16 bytes, leaving the rest as they were', () => {
    expect(uuidText(Buffer.alloc(16, 0xff), 5)).toBe('ffffffff-ffff-5fff-bfff-ffffffffffff');
    expect(uuidText(Buffer.alloc(20, 0x00), 7)).toBe('00000000-0000-7000-8000-000000000000');
  });
});

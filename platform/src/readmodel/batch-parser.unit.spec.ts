import type { RecordedEvent } from '@licensestore/domain/events';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../logging/index.js';
import { batchParser } from './batch-parser.js';

const recorded = (streamId: string, data: unknown, position: string): RecordedEvent => ({
  id: `event-${position}`,
  streamId,
  revision: 0n,
  type: 'Counted',
  data,
  metadata: {
    actor: { type: 'system', id: 'test' },
    correlationId: 'c',
    causationId: 'c',
    schemaVersion: 1,
  },
  position,
  createdAt: new Date(),
});

const warnings = () => {
  const lines: Array<{ fields: object; message: string }> = [];
  const log = { warn: (fields: object, message: string) => lines.push({ fields, message }) };
  return { lines, log: log as unknown as Logger };
};

describe('batchParser', () => {
  const batch = [
    recorded('counter-1', { count: 1 }, '1'),
    recorded('other-1', { count: 2 }, '2'),
    recorded('counter-1', { count: 'three' }, '3'),
    recorded('counter-2', { count: 4 }, '4'),
  ];

  const counting = () => {
    let parsed = 0;
    const parse = batchParser({
      category: 'counter',
      parse: (event) => {
        parsed++;
        const { count } = event.data as { count: unknown };
        if (typeof count !== 'number') throw new Error('count is not a number');
        return count;
      },
      describes: 'a counter event',
    });
    return { parse, parsed: () => parsed };
  };

  it('keeps the events of its category that parse, in log order', () => {
    const { parse } = counting();
    expect(parse(batch, warnings().log, 'counters')).toEqual([1, 4]);
  });

  it('validates a batch once however many projectors read it', () => {
    const { parse, parsed } = counting();
    const first = parse(batch, warnings().log, 'counters');
    const second = parse(batch, warnings().log, 'totals');
    expect(second).toBe(first);
    expect(parsed()).toBe(3);
    parse([...batch], warnings().log, 'counters');
    expect(parsed()).toBe(6);
  });

  it('logs an event that does not parse for every projector that reads it, and throws for none', () => {
    const { parse } = counting();
    for (const projector of ['counters', 'totals']) {
      const { lines, log } = warnings();
      parse(batch, log, projector);
      expect(lines).toEqual([
        {
          fields: expect.objectContaining({ projector, eventId: 'event-3', position: '3' }),
          message: 'skipping a counter event whose data does not parse',
        },
      ]);
    }
  });
});

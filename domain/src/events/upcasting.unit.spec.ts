import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from './port.js';
import { EventVersions, FutureEventVersionError } from './upcasting.js';

/** A price that went from cents (v1) to a decimal string (v2) to an amount with its currency (v3). */
const versions = new EventVersions({
  PriceSet: [
    (data) => ({ price: ((data as { cents: number }).cents / 100).toFixed(2) }),
    (data) => ({ amount: (data as { price: string }).price, currency: 'USD' }),
  ],
});

const recorded = (type: string, schemaVersion: number, data: unknown): RecordedEvent => ({
  id: randomUUID(),
  streamId: `price-${randomUUID()}`,
  revision: 0n,
  type,
  data,
  metadata: { actor: { type: 'system', id: 'test' }, correlationId: 'c', causationId: 'c', schemaVersion },
  position: '1',
  createdAt: new Date(),
});

describe('Event versions', () => {
  it('counts a type at one version more than its upcasters, and an unlisted type at version 1', () => {
    expect(versions.currentVersion('PriceSet')).toBe(3);
    expect(versions.currentVersion('PriceCleared')).toBe(1);
    expect(versions.currentVersion('constructor')).toBe(1);
  });

  describe('when reading', () => {
    it('upcasts a version 1 event through every upcaster, in order', () => {
      const event = recorded('PriceSet', 1, { cents: 1999 });
      const upcast = versions.upcast(event);
      expect(upcast.data).toEqual({ amount: '19.99', currency: 'USD' });
      expect(upcast.metadata.schemaVersion).toBe(3);
      expect({ ...upcast, data: event.data, metadata: event.metadata }).toEqual(event);
    });

    it('upcasts a version 2 event through the upcasters after its version only', () => {
      const upcast = versions.upcast(recorded('PriceSet', 2, { price: '5.00' }));
      expect(upcast.data).toEqual({ amount: '5.00', currency: 'USD' });
    });

    it('hands out an event of the current version as it is', () => {
      const event = recorded('PriceSet', 3, { amount: '1.00', currency: 'USD' });
      expect(versions.upcast(event)).toBe(event);
      const unlisted = recorded('PriceCleared', 1, {});
      expect(versions.upcast(unlisted)).toBe(unlisted);
    });

    it('refuses an event newer than the code, naming it, rather than misread it', () => {
      const event = recorded('PriceSet', 4, { amount: { value: '1.00' } });
      expect(() => versions.upcast(event)).toThrow(FutureEventVersionError);
      expect(() => versions.upcast(event)).toThrow(
        `event ${event.id} (PriceSet in ${event.streamId}) is version 4`,
      );
      expect(() => versions.upcast(recorded('PriceCleared', 2, {}))).toThrow(FutureEventVersionError);
    });
  });

  describe('when writing', () => {
    it("records the type's current version, whatever the writer gave", () => {
      const metadata = {
        actor: { type: 'system', id: 'test' },
        correlationId: 'c',
        causationId: 'c',
      } as const;
      const event = { type: 'PriceSet', data: { amount: '1.00', currency: 'USD' }, metadata };
      expect(versions.stamp(event).metadata).toEqual({ ...metadata, schemaVersion: 3 });
      const claimingOld = { ...event, metadata: { ...metadata, schemaVersion: 1 } };
      expect(versions.stamp(claimingOld).metadata.schemaVersion).toBe(3);
      expect(versions.stamp({ ...event, type: 'PriceCleared' }).metadata.schemaVersion).toBe(1);
    });
  });
});
